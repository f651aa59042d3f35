/**
 * The IPC channels between the preload and the main process, as plain literals.
 *
 * The preload runs sandboxed and may only require 'electron', so it cannot bundle the contract
 * (src-main/contract.ts imports zod). This module is what it bundles instead: the call names and
 * the event channels, with no runtime imports. The types below make the compiler refuse a list that
 * misses or invents a call of the contract, and tests/unit/electron-main.test.ts compares it with
 * CALL_NAMES at run time too.
 */
import type { CallName, EventName } from '../contract';

/** Every call of the contract; each is also its IPC channel (`ipcMain.handle(name, ...)`). */
export const CALL_CHANNELS = [
  'runs.start',
  'runs.check',
  'runs.list',
  'runs.get',
  'runs.trace',
  'runs.cancel',
  'runs.update',
  'runs.delete',
  'presets.list',
  'presets.get',
  'presets.saveCustom',
  'presets.deleteCustom',
  'experiments.list',
  'comparisons.save',
  'comparisons.list',
  'comparisons.get',
  'comparisons.delete',
  'bundles.export',
  'bundles.import',
  'exports.csv',
  'exports.pdf',
  'reproduce.rows',
  'reproduce.cancel',
  'reproduce.references',
  'app.version',
  'app.checkDatabase',
  'sweeps.check',
  'sweeps.start',
  'sweeps.list',
  'sweeps.get',
  'sweeps.cancel',
  'sweeps.delete',
  'sweeps.csv',
  'sweeps.collect',
  'sweeps.pdf',
  'gpu.emit',
  'gpu.import',
  'gpu.status',
  'gpu.experiments',
  'gpu.run',
  'gpu.cancel',
  'gpu.preset',
  'gpu.characterise',
  'gpu.importCharacterisation',
] as const satisfies readonly CallName[];

/** Main -> renderer: each lab event on its own fixed channel (`webContents.send(channel, payload)`). */
export const EVENT_CHANNELS = {
  'run.progress': 'lab:event:run.progress',
  'run.finished': 'lab:event:run.finished',
  'queue.changed': 'lab:event:queue.changed',
  'reproduce.progress': 'lab:event:reproduce.progress',
  'gpu.progress': 'lab:event:gpu.progress',
} as const satisfies Record<EventName, string>;

/** The window title (the renderer's router adds the view's name in front). */
export const APP_TITLE = 'GPU Memory Lab';

/** What a refused or failed call answers on the wire (the lab service's `CallOutcome`). */
export type IpcOutcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

// Compile-time: the list names every call (a missing one makes `_Missing` a name, not never).
type _Missing = Exclude<CallName, (typeof CALL_CHANNELS)[number]>;
type Assert<T extends true> = T;
export type _EveryCallHasAChannel = Assert<[_Missing] extends [never] ? true : false>;
