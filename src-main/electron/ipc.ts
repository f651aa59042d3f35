/**
 * The lab service on Electron IPC: one `ipcMain.handle` per call of the contract, each refusing a
 * sender that is not our page and passing everything else to `lab.dispatch` (which validates the
 * argument through the contract); and the lab's events forwarded to the window on fixed channels.
 *
 * Electron is injected (the slices used here), so this module is unit-tested without it.
 */
import type { IpcMainInvokeEvent } from 'electron';
import type { LabEvents } from '../contract';
import { CALL_CHANNELS, EVENT_CHANNELS } from './channels';
import type { IpcOutcome } from './channels';

/** What the IPC layer needs of the lab service (src-main/services/lab.ts LabService). */
export interface IpcLab {
  dispatch(name: string, rawArgs: unknown): Promise<IpcOutcome>;
  on<E extends keyof LabEvents>(event: E, listener: (payload: LabEvents[E]) => void): () => void;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The answer to a sender that is not one of our pages: nothing is dispatched. */
export function refusal(channel: string): IpcOutcome {
  return { ok: false, error: { code: 'unauthorized', message: `${channel}: refused (the caller is not a page of this app)` } };
}

/**
 * Registers a handler for every call. `trusted` decides per event (sender frame and webContents);
 * a refused call never reaches the lab. Returns a function that removes the handlers.
 */
export function registerLabIpc(ipcMain: IpcMainLike, lab: IpcLab, trusted: (event: IpcMainInvokeEvent) => boolean): () => void {
  for (const name of CALL_CHANNELS) {
    // Exactly one argument: anything more from the page is ignored.
    ipcMain.handle(name, (event, args) => (trusted(event) ? lab.dispatch(name, args) : refusal(name)));
  }
  return () => {
    for (const name of CALL_CHANNELS) ipcMain.removeHandler(name);
  };
}

/** The slice of a webContents that events are sent to. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

/**
 * Sends each lab event to the current target (the main window's webContents, or null while there
 * is none). Returns the unsubscribe function.
 */
export function forwardLabEvents(lab: IpcLab, target: () => EventTarget | null): () => void {
  const offs = (Object.keys(EVENT_CHANNELS) as (keyof LabEvents)[]).map((event) =>
    lab.on(event, (payload) => {
      const t = target();
      if (t && !t.isDestroyed()) t.send(EVENT_CHANNELS[event], payload);
    }),
  );
  return () => offs.forEach((off) => off());
}
