/**
 * The real-GPU calls' limits and refusals as plain data and functions: the main process (the
 * contract, the services, the CLI) and the renderer (the Real GPU page) share them, and the renderer
 * takes them without the contract's zod schemas.
 */

/** Limits of the real-GPU calls. */
export const GPU_LIMITS = {
  /**
   * Bytes (UTF-8) of a program's output `gpu.import` takes, on every path: the Real GPU page, its
   * IPC call, and the browser mode's HTTP call, whose body limit for gpu.import is made to hold any
   * text this size (`GPU_IMPORT_BODY_BYTES`). Larger: `gpulab gpu import <file> --save`.
   */
  importBytes: 768 * 1024,
  /** Seconds a program may run under `gpu.run`. */
  maxTimeoutS: 3600,
  defaultTimeoutS: 600,
  /** Bytes (UTF-8) of a characterisation's file `gpu.importCharacterisation` takes (its probes' outputs together). */
  characterisationBytes: 16 * 1024 * 1024,
  /** Seconds each probe of `gpu.characterise` may run, by default. */
  defaultProbeTimeoutS: 300,
} as const;

/** The largest JSON body (bytes) of a gpu.importCharacterisation call over HTTP (the file, escaped as JSON). */
export const CHARACTERISATION_BODY_BYTES = 2 * GPU_LIMITS.characterisationBytes + 64 * 1024;

/** The import limit as the Real GPU page and every refusal state it: "768 KB" (KB of 1024 bytes). */
export const IMPORT_LIMIT_TEXT = `${GPU_LIMITS.importBytes / 1024} KB`;

/**
 * The largest JSON body (bytes) of a gpu.import call over HTTP: any text of at most importBytes
 * bytes, escaped as JSON (at most 6 bytes for one, "\u0000"), with the other arguments.
 */
export const GPU_IMPORT_BODY_BYTES = 6 * GPU_LIMITS.importBytes + 64 * 1024;

/** Bytes of a string as UTF-8, without encoding it. */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The refusal of a file over the import limit (bytes: its size, where known), in the page's units. */
export function importTooLarge(bytes?: number): string {
  return `the file is ${bytes === undefined ? 'larger than' : `${Math.ceil(bytes / 1024)} KB, more than`} the ${IMPORT_LIMIT_TEXT} an import takes: import it with gpulab gpu import <file> --save`;
}

/** The refusal of an empty file. */
export const IMPORT_EMPTY = 'the file is empty: it holds no output of a program';

/** A file's name as an import's messages and its run name it: no folders. */
export const importName = (fileName: string): string => fileName.replace(/^.*[\\/]/, '') || 'import';

/**
 * The refusal of a file, as every surface words it (`gpulab gpu import`, `gpu.import` over IPC and
 * HTTP, the Real GPU page): the file's name, then why ("out.jsonl: line 1: the program failed:
 * cudaGetDeviceProperties: cudaErrorNoDevice: no CUDA-capable device is detected").
 */
export const importRefusal = (fileName: string, reason: string): string => `${importName(fileName)}: ${reason}`;

/** Why a file's text cannot be imported as it is (empty, over the limit), or null. */
export function importTextProblem(s: string): string | null {
  // UTF-8 takes at least a byte per UTF-16 unit and at most three: count only where it matters.
  if (s.length > GPU_LIMITS.importBytes || (s.length * 3 > GPU_LIMITS.importBytes && utf8Bytes(s) > GPU_LIMITS.importBytes)) return importTooLarge(utf8Bytes(s));
  if (s.trim() === '') return IMPORT_EMPTY;
  return null;
}
