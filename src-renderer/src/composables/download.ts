/**
 * Saving a file the main process made (CSV, PDF, bundle) on the user's side: a Blob, an object URL
 * and a clicked `<a download>`. The browser mode gets an ordinary download; Electron turns the same
 * download into its save dialog. The renderer never names a path on disk (see src-main/contract.ts).
 */
import type { FileResult } from '../../../src-main/contract';

/** A file name without directories or characters file systems refuse; never empty. */
export function safeFileName(name: string, fallback = 'download'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^\.+/, '').trim();
  return cleaned || fallback;
}

/** "12.3 KB": a file's size for the message after a download. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Offers the file for saving; returns the name it was offered under. */
export function saveFile(file: FileResult): string {
  const name = safeFileName(file.fileName);
  // A copy onto a plain ArrayBuffer: Blob wants that (the wire may hand a view of a larger buffer).
  const blob = new Blob([new Uint8Array(file.bytes)], { type: file.mimeType || 'application/octet-stream' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The download has started reading the blob by now; give slow save dialogs time before revoking.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return name;
}
