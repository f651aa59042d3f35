/**
 * The sources a citation or a provenance names ("MEI Table 3", "WONG Fig 13", "SL1 §2.1"): what the
 * kinds test and the perturbation test match a check's citation to a preset number's provenance by.
 */

/** The keys a citation or provenance names its papers by. */
export const SOURCE_KEYS = ['MEI', 'WONG', 'LASH', 'SL1', 'JIA18', 'JIA19', 'ABD22', 'LUO24', 'H100', 'H200', 'NVIDIA'];

/** Removes parenthesised details (innermost first): the sources are named outside them. */
function stripParens(s: string): string {
  let prev = '';
  let out = s;
  while (out !== prev) {
    prev = out;
    out = out.replace(/\([^()]*\)/g, ' ');
  }
  return out;
}

/**
 * The sources a citation or provenance names: "MEI Table 3", "WONG Fig 13", "SL1 §2.1", "LASH §VI".
 * Every paper key starts a segment; within it, tables and figures (with lists and ranges) and the
 * section right after the key or after a comma or semicolon.
 */
export function sources(text: string): Set<string> {
  const out = new Set<string>();
  const s = stripParens(text).replace(/"[^"]*"/g, ' ');
  const parts = s.split(new RegExp(`\\b(${SOURCE_KEYS.join('|')})\\b`));
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i];
    const seg = parts[i + 1] ?? '';
    for (const m of seg.matchAll(/\bTables?\s+([IVX]+|\d+)(?:\s*(?:-|–|,|and)\s*([IVX]+|\d+))*/g)) {
      for (const n of m[0].replace(/^Tables?\s+/, '').split(/\s*(?:-|–|,|and)\s*/)) if (n) out.add(`${key} Table ${n}`);
    }
    for (const m of seg.matchAll(/\bFigs?\.?\s+(\d+)[a-z]?(?:\s*(?:-|–|,|and)\s*\d+[a-z]?)*/g)) {
      const nums = m[0].replace(/^Figs?\.?\s+/, '').split(/\s*(?:-|–|,|and)\s*/).map((n) => parseInt(n, 10));
      if (nums.length === 2 && /-|–/.test(m[0])) for (let n = nums[0]; n <= nums[1]; n++) out.add(`${key} Fig ${n}`);
      else for (const n of nums) if (Number.isFinite(n)) out.add(`${key} Fig ${n}`);
    }
    const section = /^\s*(?:,\s*)?((?:[IVX]+(?:-[A-Z]\d*)?)|(?:\d+(?:\.\d+)+))\b/.exec(seg);
    if (section) out.add(`${key} §${section[1]}`);
    for (const m of seg.matchAll(/[,;]\s*((?:[IVX]+-[A-Z]\d*)|(?:\d+\.\d+(?:\.\d+)?))\b/g)) out.add(`${key} §${m[1]}`);
  }
  return out;
}

