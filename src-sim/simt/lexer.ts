import type { Pos } from './ast';
import { KernelError } from './ast';

export type TokenKind = 'ident' | 'int' | 'float' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The token's text (numbers as written, without an f suffix). */
  text: string;
  pos: Pos;
}

/** Longest first, so that "<<=" wins over "<<" and "<". */
const PUNCT = [
  '<<=', '>>=',
  '&&', '||', '==', '!=', '<=', '>=', '<<', '>>', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
  '+', '-', '*', '/', '%', '<', '>', '=', '!', '~', '&', '|', '^', '(', ')', '{', '}', '[', ']', ';', ',', '.', '?', ':',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdent = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Splits kernel text into tokens; comments (// and block) and whitespace are skipped. */
export function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let col = 1;
  const advance = (n: number): void => {
    for (let k = 0; k < n; k++) {
      if (src[i] === '\n') {
        line++;
        col = 1;
      } else col++;
      i++;
    }
  };
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      advance(1);
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') advance(1);
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const pos = { line, col };
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new KernelError(pos, 'unterminated comment: expected */');
      advance(end + 2 - i);
      continue;
    }
    const pos = { line, col };
    if (isIdentStart(c)) {
      let j = i;
      while (j < src.length && isIdent(src[j])) j++;
      out.push({ kind: 'ident', text: src.slice(i, j), pos });
      advance(j - i);
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?)([fF]?)/.exec(src.slice(i));
      if (!m) throw new KernelError(pos, 'malformed number');
      const text = m[0];
      const hex = /^0[xX]/.test(text);
      const isFloat = !hex && /[.eEfF]/.test(text);
      if (isIdent(src[i + text.length] ?? '')) throw new KernelError(pos, `malformed number "${text}${src[i + text.length]}"`);
      out.push({ kind: isFloat ? 'float' : 'int', text: hex ? text : text.replace(/[fF]$/, ''), pos });
      advance(text.length);
      continue;
    }
    const p = PUNCT.find((s) => src.startsWith(s, i));
    if (!p) throw new KernelError(pos, `unexpected character '${c}'`);
    out.push({ kind: 'punct', text: p, pos });
    advance(p.length);
  }
  out.push({ kind: 'eof', text: '', pos: { line, col } });
  return out;
}
