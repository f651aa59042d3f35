/** Sizes in bytes as people write them: parsed from "4KB", formatted as the papers write them. */

const UNITS: Record<string, number> = { b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** Parses "4096", "4KB", "2 MB", "1.5GB" into bytes; NaN when malformed. */
export function parseBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?i?b?)?\s*$/i.exec(text);
  if (!m) return NaN;
  const unit = (m[2] ?? '').toLowerCase().replace('i', '');
  const mult = unit === '' ? 1 : UNITS[unit];
  if (mult === undefined) return NaN;
  return Math.round(parseFloat(m[1]) * mult);
}

/** Formats bytes the way the papers write them: 512 B, 12 KB, 2 MB. */
export function formatBytes(n: number): string {
  for (const [u, f] of [['GB', 1024 ** 3], ['MB', 1024 ** 2], ['KB', 1024]] as const) {
    if (n >= f && n % (f / 16) === 0) return `${+(n / f).toFixed(4)} ${u}`;
  }
  return `${n} B`;
}
