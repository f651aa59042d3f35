/**
 * Where the lab keeps its database when no `--db` is given: the same folder the desktop app uses
 * (Electron's `app.getPath('userData')` for an app named "gpu-memory-lab"), so that the desktop app,
 * the browser mode and the command line share one library of runs.
 *
 * Electron's userData is `<appData>/<app name>`, with appData:
 * - Linux: `$XDG_CONFIG_HOME` or `~/.config`
 * - macOS: `~/Library/Application Support`
 * - Windows: `%APPDATA%` (or `~\AppData\Roaming`)
 */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** package.json's name: what Electron calls the app (there is no productName). */
export const APP_DIR_NAME = 'gpu-memory-lab';
export const DB_FILE_NAME = 'lab.db';

export interface PathEnv {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
}

const here = (): PathEnv => ({ platform: process.platform, env: process.env, home: homedir() });

/** The app's user-data folder, as Electron computes it. */
export function userDataDir(where: PathEnv = here()): string {
  const { platform, env, home } = where;
  if (platform === 'win32') return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  // XDG: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : posix.join(home, '.config');
  return posix.join(xdg, APP_DIR_NAME);
}

/** The default database file: `<userData>/lab.db`. */
export function defaultDbPath(where: PathEnv = here()): string {
  const dir = userDataDir(where);
  return where.platform === 'win32' ? win32.join(dir, DB_FILE_NAME) : posix.join(dir, DB_FILE_NAME);
}
