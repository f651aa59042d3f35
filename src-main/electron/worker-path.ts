/**
 * The built simulation worker (src-sim/worker.ts), as electron-vite emits it beside the main
 * bundle: `?modulePath` makes it its own entry (out/main/chunks/worker-<hash>.js, which the
 * asarUnpack pattern of electron-builder.json, worker*.js anywhere under out/main, keeps outside
 * the asar) and gives its absolute path. Its own module so that unit tests can stand in for it.
 */
import workerPath from '../../src-sim/worker?modulePath';

/** Inside a packaged app the worker runs from app.asar.unpacked (asarUnpack), not from the archive. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export const WORKER_PATH: string = unpackedPath(workerPath);
