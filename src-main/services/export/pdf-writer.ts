/**
 * Layout on top of PDFKit for the report: headings that keep with what follows, paragraphs,
 * tables that break across pages (repeating their header), SVG drawings as vectors, page footers.
 *
 * Text uses the standard Helvetica fonts (not embedded; WinAnsi encoding): characters outside
 * WinAnsi are written as "?" rather than as garbage (see `pdfText`).
 */
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const OBLIQUE = 'Helvetica-Oblique';
const MUTED = '#555555';
const RULE = '#9aa0a6';
const ZEBRA = '#f2f4f7';

/** The characters beyond ASCII that WinAnsi (the standard fonts' encoding) holds. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can show: tabs as spaces, other control and non-WinAnsi characters as "?". */
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0) as number;
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += ' ';
    else if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch !== '\r') out += '?';
  }
  return out;
}

/** Cuts long text (a table cell must fit on a page) with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Room a column needs beside its text when widths are fitted (both sides' padding and a margin). */
const CELL_PAD = 8;

export interface Column {
  header: string;
  /** Relative width; omitted: from the content. */
  weight?: number;
  /** Of the cells and the header (default left). */
  align?: 'left' | 'right' | 'center';
  /** Drawn in a smaller, grey font (citations, evidence). */
  muted?: boolean;
}

export interface TableOptions {
  fontSize?: number;
  /** Draws the header row (default true). */
  header?: boolean;
  /** Total width (default: the text width). */
  width?: number;
  zebra?: boolean;
  /** Longest cell text (longer text is cut). */
  maxCellChars?: number;
}

export interface DocInfo {
  title: string;
  subject?: string;
  creationDate: Date;
}

export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  readonly left: number;
  readonly width: number;
  readonly top: number;
  readonly bottom: number;
  /** Warnings of the SVG converter (unsupported SVG features), for tests and logs. */
  readonly svgWarnings: string[] = [];
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<void>;

  constructor(info: DocInfo, private readonly footer: string) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: 56, bottom: 60, left: 50, right: 50 },
      bufferPages: true,
      info: { Title: pdfText(info.title), Subject: pdfText(info.subject ?? ''), Author: 'GPU Memory Lab', Creator: 'GPU Memory Lab', Producer: 'GPU Memory Lab (PDFKit)', CreationDate: info.creationDate, ModDate: info.creationDate },
    });
    this.done = new Promise((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => this.chunks.push(c));
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
    const p = this.doc.page;
    this.left = p.margins.left;
    this.width = p.width - p.margins.left - p.margins.right;
    this.top = p.margins.top;
    this.bottom = p.height - p.margins.bottom;
    this.doc.font(FONT).fontSize(10).fillColor('black');
  }

  get y(): number {
    return this.doc.y;
  }

  newPage(): void {
    this.doc.addPage();
    this.doc.x = this.left;
    this.doc.y = this.top;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom) this.newPage();
  }

  gap(points: number): void {
    this.doc.y = Math.min(this.doc.y + points, this.bottom);
  }

  /** A heading; `keep` points of what follows must fit under it on the same page. */
  heading(text: string, level: 1 | 2 | 3, keep = 80): void {
    const size = level === 1 ? 17 : level === 2 ? 13 : 10.5;
    const t = pdfText(text);
    const h = this.doc.font(BOLD).fontSize(size).heightOfString(t, { width: this.width });
    if (this.doc.y > this.top + 1) this.gap(level === 1 ? 6 : 10);
    this.ensure(h + keep);
    this.doc.fillColor(level === 1 ? '#1d3557' : 'black').text(t, this.left, this.doc.y, { width: this.width });
    if (level === 1) {
      const y = this.doc.y + 2;
      this.doc.moveTo(this.left, y).lineTo(this.left + this.width, y).lineWidth(0.8).strokeColor('#1d3557').stroke();
      this.doc.y = y + 6;
    } else this.doc.y += 3;
    this.doc.font(FONT).fontSize(10).fillColor('black');
  }

  /** A paragraph (flows across pages). */
  paragraph(text: string, options: { size?: number; muted?: boolean; italic?: boolean; bold?: boolean; gapAfter?: number } = {}): void {
    const font = options.bold ? BOLD : options.italic ? OBLIQUE : FONT;
    this.doc.font(font).fontSize(options.size ?? 9.5).fillColor(options.muted ? MUTED : 'black');
    const t = pdfText(text);
    this.ensure(Math.min(this.doc.heightOfString(t, { width: this.width }), 40));
    this.doc.text(t, this.left, this.doc.y, { width: this.width });
    this.doc.y += options.gapAfter ?? 4;
    this.doc.font(FONT).fontSize(10).fillColor('black');
  }

  /** Widths of the columns: given weights, or the content's natural widths fitted to `total`. */
  private columnWidths(columns: readonly Column[], rows: readonly string[][], fontSize: number, total: number): number[] {
    const pad = CELL_PAD;
    const natural = columns.map((c, j) => {
      if (c.weight !== undefined) return 0;
      let w = this.doc.font(BOLD).fontSize(fontSize).widthOfString(c.header) + pad;
      this.doc.font(FONT).fontSize(fontSize);
      for (let i = 0; i < Math.min(rows.length, 300); i++) w = Math.max(w, Math.min(this.doc.widthOfString(rows[i][j] ?? '') + pad, 260));
      return Math.max(w, 28);
    });
    if (columns.every((c) => c.weight !== undefined)) {
      const sum = columns.reduce((a, c) => a + (c.weight as number), 0);
      return columns.map((c) => ((c.weight as number) / sum) * total);
    }
    // Mixed or natural: weighted columns take their share of what the natural ones leave.
    const weighted = columns.reduce((a, c) => a + (c.weight ?? 0), 0);
    let naturalSum = natural.reduce((a, b) => a + b, 0);
    const fair = total / columns.length;
    if (weighted === 0) {
      // Narrow content: widened up to 1.6 times (a short table need not span the page).
      if (naturalSum <= total) return natural.map((w) => w * Math.min(total / naturalSum, 1.6));
      // Too wide: every column gets what it needs not to break a word or a short cell, and the rest
      // goes to those that want more, in proportion to what they want.
      const least = columns.map((c, j) => Math.min(this.leastWidth(c.header, rows, j, fontSize), natural[j]));
      const leastSum = least.reduce((a, b) => a + b, 0);
      if (leastSum <= total) return natural.map((w, j) => least[j] + ((w - least[j]) / (naturalSum - leastSum)) * (total - leastSum));
      // Not even that fits: narrow columns keep their width, wide ones share the rest in proportion.
      const small = natural.filter((w) => w <= fair);
      const rest = total - small.reduce((a, b) => a + b, 0);
      const bigSum = naturalSum - small.reduce((a, b) => a + b, 0);
      return natural.map((w) => (w <= fair ? w : (w / bigSum) * rest));
    }
    naturalSum = Math.min(naturalSum, total * 0.6);
    const scale = naturalSum / natural.reduce((a, b) => a + b, 0);
    return columns.map((c, j) => (c.weight !== undefined ? ((c.weight as number) / weighted) * (total - naturalSum) : natural[j] * scale));
  }

  /**
   * The narrowest a column can be without breaking a word of its header or a short cell (cells wider
   * than `wrapAt` points may wrap), padding included; texts already through pdfText.
   */
  private leastWidth(header: string, rows: readonly (readonly string[])[], j: number, fontSize: number, wrapAt = 90): number {
    const doc = this.doc;
    doc.font(BOLD).fontSize(fontSize);
    let w = Math.max(0, ...header.split(/\s+/).map((word) => doc.widthOfString(word)));
    doc.font(FONT).fontSize(fontSize);
    for (let i = 0; i < Math.min(rows.length, 300); i++) w = Math.max(w, Math.min(doc.widthOfString(rows[i][j] ?? ''), wrapAt));
    return w + CELL_PAD;
  }

  /**
   * Splits a table too wide for the page into parts of whole columns, each repeating the first `keep`
   * columns (the row labels): a column needs its widest short cell (numbers, labels up to `wrapAt`
   * points; longer text may wrap) and its header's longest word. Returns the column indices of each
   * part; one part when everything fits.
   */
  columnParts(headers: readonly string[], rows: readonly (readonly string[])[], options: { fontSize?: number; keep?: number; wrapAt?: number } = {}): number[][] {
    const keep = Math.min(options.keep ?? 1, headers.length);
    const cells = rows.map((r) => headers.map((_, j) => pdfText(r[j] ?? '')));
    const need = headers.map((h, j) => this.leastWidth(pdfText(h), cells, j, options.fontSize ?? 8, options.wrapAt));
    const fixed = need.slice(0, keep).reduce((a, b) => a + b, 0);
    const parts: number[][] = [];
    let cur: number[] = [];
    let used = fixed;
    for (let j = keep; j < headers.length; j++) {
      if (cur.length > 0 && used + need[j] > this.width) {
        parts.push(cur);
        cur = [];
        used = fixed;
      }
      cur.push(j);
      used += need[j];
    }
    if (cur.length > 0 || parts.length === 0) parts.push(cur);
    const lead = Array.from({ length: keep }, (_, j) => j);
    return parts.map((p) => [...lead, ...p]);
  }

  /** A table; rows break across pages and the header repeats. */
  table(columns: readonly Column[], rawRows: readonly (readonly string[])[], options: TableOptions = {}): void {
    const doc = this.doc;
    const fs = options.fontSize ?? 8;
    const pad = 3;
    const total = options.width ?? this.width;
    const maxChars = options.maxCellChars ?? 1200;
    const rows = rawRows.map((r) => columns.map((_, j) => clip(pdfText(r[j] ?? ''), maxChars)));
    const headers = columns.map((c) => pdfText(c.header));
    const widths = this.columnWidths(
      columns.map((c, j) => ({ ...c, header: headers[j] })),
      rows,
      fs,
      total,
    );
    const tableWidth = widths.reduce((a, b) => a + b, 0);
    const fontOf = (j: number, header: boolean): [string, number] => (header ? [BOLD, fs] : [FONT, columns[j].muted ? fs - 0.5 : fs]);
    const rowHeight = (cells: readonly string[], header: boolean): number =>
      Math.max(
        ...cells.map((t, j) => {
          const [f, s] = fontOf(j, header);
          return doc.font(f).fontSize(s).heightOfString(t || ' ', { width: widths[j] - 2 * pad });
        }),
      ) +
      2 * pad;
    const drawRow = (cells: readonly string[], header: boolean, shade: boolean): void => {
      const h = rowHeight(cells, header);
      const y = doc.y;
      if (shade) doc.rect(this.left, y, tableWidth, h).fillColor(ZEBRA).fill();
      let x = this.left;
      cells.forEach((t, j) => {
        const [f, s] = fontOf(j, header);
        doc
          .font(f)
          .fontSize(s)
          .fillColor(!header && columns[j].muted ? MUTED : 'black')
          .text(t, x + pad, y + pad, { width: widths[j] - 2 * pad, align: columns[j].align ?? 'left', lineBreak: true });
        x += widths[j];
      });
      doc.y = y + h;
      if (header) doc.moveTo(this.left, doc.y).lineTo(this.left + tableWidth, doc.y).lineWidth(0.6).strokeColor(RULE).stroke();
    };
    const withHeader = options.header !== false;
    const headerHeight = withHeader ? rowHeight(headers, true) : 0;
    this.ensure(headerHeight + (rows.length ? rowHeight(rows[0], false) : 0));
    if (withHeader) drawRow(headers, true, false);
    rows.forEach((r, i) => {
      const h = rowHeight(r, false);
      if (doc.y + h > this.bottom) {
        this.newPage();
        if (withHeader) drawRow(headers, true, false);
      }
      drawRow(r, false, options.zebra !== false && i % 2 === 1);
    });
    doc.moveTo(this.left, doc.y).lineTo(this.left + tableWidth, doc.y).lineWidth(0.4).strokeColor(RULE).stroke();
    doc.y += 6;
    doc.font(FONT).fontSize(10).fillColor('black');
  }

  /** Label/value pairs as a two-column table without header. */
  keyValues(pairs: readonly (readonly [string, string])[], labelWidth = 120, fontSize = 9): void {
    this.table(
      [
        { header: '', weight: labelWidth },
        { header: '', weight: this.width - labelWidth },
      ],
      pairs.map(([k, v]) => [k, v]),
      { header: false, fontSize, zebra: true, maxCellChars: 4000 },
    );
  }

  /** A list of coloured swatches with text (a legend). */
  swatches(items: readonly { color: string; text: string }[]): void {
    const doc = this.doc;
    doc.font(FONT).fontSize(9);
    for (const it of items) {
      const t = pdfText(it.text);
      const h = Math.max(12, doc.heightOfString(t, { width: this.width - 22 }) + 3);
      this.ensure(h);
      const y = doc.y;
      doc.rect(this.left, y + 1.5, 14, 7).fillColor(it.color).fill();
      doc.fillColor('black').text(t, this.left + 22, y, { width: this.width - 22 });
      doc.y = y + h;
    }
    doc.y += 4;
  }

  /** An SVG drawing (vectors, text as PDF text) of `width` x `height` points, at the left margin. */
  svg(svg: string, width: number, height: number): void {
    this.ensure(height);
    const y = this.doc.y;
    SVGtoPDF(this.doc, svg, this.left, y, {
      width,
      height,
      assumePt: true,
      fontCallback: (_family, bold) => (bold ? BOLD : FONT),
      warningCallback: (m) => this.svgWarnings.push(m),
    });
    this.doc.x = this.left;
    this.doc.y = y + height;
    this.doc.font(FONT).fontSize(10).fillColor('black');
  }

  /** Writes the footers ("<footer> - page i of n") and returns the file's bytes. */
  async finish(): Promise<Uint8Array> {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing below the bottom margin must not open a page
      doc
        .font(FONT)
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(pdfText(`${this.footer}  -  page ${i + 1} of ${range.count}`), this.left, doc.page.height - 38, { width: this.width, align: 'center', lineBreak: false });
      doc.page.margins.bottom = margin;
    }
    doc.end();
    await this.done;
    const all = Buffer.concat(this.chunks);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  }
}
