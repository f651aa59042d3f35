/**
 * The first slice of `window.lab`, the only object the renderer gets from the main process. Plain
 * types and constants: the preload bundles it, the renderer imports its types only. The full
 * contract (runs, presets, exports) replaces it in a later issue; the channel names follow its
 * convention (`namespace.method`).
 */

export interface ShellVersion {
  /** package.json version of the app. */
  app: string;
  /** src-sim/version.ts SIM_VERSION. */
  simulator: string;
  electron: string;
  chrome: string;
  node: string;
}

export interface ShellApi {
  version(): Promise<ShellVersion>;
}

/** Every IPC channel the shell answers; ipcMain handles these and nothing else. */
export const SHELL_CHANNELS = {
  version: 'app.version',
} as const;

/** The window title, also what the end-to-end test looks for. */
export const APP_TITLE = 'GPU Memory Lab';
