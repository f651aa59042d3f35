/**
 * Reading a file a folder holds without trusting it: a regular file only (no link, pipe, device or
 * socket, which could point at another file, block for ever or never end), of a bounded size, checked
 * before a byte is read and again on the opened descriptor (a file swapped between the two checks is
 * caught). The messages say what the path is, never what it holds.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

export class UnsafeFile extends Error {
  override name = 'UnsafeFile';
}

function kind(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  if (s.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * The bytes of a regular file of at most `maxBytes`; an UnsafeFile error saying why not. A file the
 * user names (`followLinks`) may be a link to a regular file; a file a folder holds may not.
 */
export function readRegularFile(path: string, maxBytes: number, options: { followLinks?: boolean } = {}): Uint8Array {
  const follow = options.followLinks === true;
  let st: Stats;
  try {
    st = follow ? statSync(path) : lstatSync(path);
  } catch (e) {
    throw new UnsafeFile(`cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!st.isFile()) throw new UnsafeFile(`${kind(st)}, not a regular file: only the files written here are read`);
  if (st.size > maxBytes) throw new UnsafeFile(`${st.size} bytes, more than the ${maxBytes} it may hold`);
  let fd: number;
  try {
    // No link followed, and no wait on a pipe swapped in since the check.
    fd = openSync(path, constants.O_RDONLY | (follow ? 0 : (constants.O_NOFOLLOW ?? 0)) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new UnsafeFile(`cannot open it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile()) throw new UnsafeFile(`${kind(now)}, not a regular file: only the files written here are read`);
    if (now.size > maxBytes) throw new UnsafeFile(`${now.size} bytes, more than the ${maxBytes} it may hold`);
    const out = new Uint8Array(now.size);
    let got = 0;
    while (got < out.length) {
      const n = readSync(fd, out, got, out.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === out.length ? out : out.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
