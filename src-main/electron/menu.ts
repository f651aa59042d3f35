/**
 * The application menu as a template (Electron's `Menu.buildFromTemplate` takes it in main.ts):
 * File (Import bundle…, Export report…, Quit), Edit (the text-editing roles forms need), View
 * (zoom; reload and developer tools only in development). The actions are injected, so the
 * template is unit-tested without Electron.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { APP_TITLE } from './channels';

export interface MenuActions {
  /** Asks for a bundle file and imports it. */
  importBundle(): void;
  /** Shows the Reports view, where reports are made and saved. */
  exportReport(): void;
  /** Quits gracefully (runs still going are recorded as interrupted). */
  quit(): void;
}

export function menuTemplate(actions: MenuActions, options: { platform: NodeJS.Platform; dev: boolean }): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'import-bundle', label: 'Import bundle…', accelerator: 'CmdOrCtrl+O', click: () => actions.importBundle() },
      { id: 'export-report', label: 'Export report…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportReport() },
      ...(mac ? [] : [{ type: 'separator' } as const, { id: 'quit', label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() }]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
  };
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(options.dev ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: APP_TITLE,
          submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { id: 'quit', label: `Quit ${APP_TITLE}`, accelerator: 'Cmd+Q', click: () => actions.quit() }],
        },
      ]
    : [];
  return [...appMenu, file, edit, view];
}
