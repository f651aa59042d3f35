/** Where a provenance entry covering a preset field sits, and what it says. */
export interface ProvenanceHit {
  /** The provenance key that covers the path (the path itself or an object above it). */
  key: string;
  text: string;
}

/**
 * The provenance of a preset field: the entry under the longest dotted prefix of its path (the
 * field's own, or an object's above it), or null where none covers it. Latency keys hold '/', never
 * '.', so a path splits on '.' only.
 */
export function provenanceOf(path: string, provenance: Record<string, string>): ProvenanceHit | null {
  let p = path;
  for (;;) {
    if (Object.prototype.hasOwnProperty.call(provenance, p)) return { key: p, text: provenance[p]! };
    const cut = p.lastIndexOf('.');
    if (cut < 0) return null;
    p = p.slice(0, cut);
  }
}
