/**
 * A program's output or a characterisation's file as `gpu import` reads it: a regular file (or a
 * link to one: the user names it) of at most 256 MB, the most a program may print under `gpu run`,
 * checked before a byte is read (a device or a pipe would never end).
 */
import { readRegularFile } from '../services/safe-read';

export const MAX_OUTPUT_FILE_BYTES = 256 * 2 ** 20;

export function readOutputFile(file: string): string {
  return new TextDecoder().decode(readRegularFile(file, MAX_OUTPUT_FILE_BYTES, { followLinks: true }));
}
