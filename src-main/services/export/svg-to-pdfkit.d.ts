/** Types of svg-to-pdfkit 0.1.8 (the package ships none): the options this project uses. */
declare module 'svg-to-pdfkit' {
  interface SVGtoPDFOptions {
    /** Viewport in PDF points when `assumePt`, otherwise in SVG pixels (1 px = 0.75 pt). */
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    assumePt?: boolean;
    precision?: number;
    /** Chooses the PDFKit font for an SVG font-family; returns a font name PDFKit knows. */
    fontCallback?: (family: string, bold: boolean, italic: boolean, options: { fauxBold: boolean; fauxItalic: boolean }) => string;
    warningCallback?: (message: string) => void;
    colorCallback?: (color: [[number, number, number], number]) => [[number, number, number], number];
  }
  /** Draws the SVG into the PDFKit document at (x, y), as vectors. */
  function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: SVGtoPDFOptions): void;
  export default SVGtoPDF;
}
