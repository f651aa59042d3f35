/**
 * The API's bounds on every argument as plain data: the contract's schemas and the store enforce
 * them, and the renderer's forms show them, without importing the schemas (zod) to read them.
 */

/** Bounds on every argument; the store enforces the same ones. */
export const LIMITS = {
  titleChars: 200,
  notesChars: 20_000,
  nameChars: 120,
  tagChars: 40,
  tagsPerRun: 32,
  textQueryChars: 200,
  /** Runs one call may name (delete, bundle export). */
  idsPerCall: 1_000,
  /** Runs one comparison, CSV or PDF may hold. */
  runsPerReport: 64,
  listPageMax: 500,
  paramKeys: 64,
  paramStringChars: 256,
  /** A text parameter (a kernel's source, ParamSpec kind 'text'): newlines and tabs allowed. */
  paramTextChars: 16_384,
  paramListItems: 4_096,
  /** A custom preset as JSON. */
  presetJsonBytes: 256 * 1024,
  presetDepth: 12,
  /** A bundle file (gzip or plain JSON). */
  bundleBytes: 512 * 1024 * 1024,
  /** Nesting of any argument (hostile-input guard). */
  argDepth: 32,
} as const;
