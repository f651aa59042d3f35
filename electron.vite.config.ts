import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';
import { CSP, CSP_DEV } from './src-main/electron/csp';

// Electron's binary may be absent (it is an optionalDependency, see README); electron-vite reads the
// major version from electron/package.json unless ELECTRON_MAJOR_VER is set.
const __dirname = dirname(fileURLToPath(import.meta.url));
process.env.ELECTRON_MAJOR_VER ??= '43';

/** Writes the renderer's Content Security Policy into index.html: strict when built, hot-reload friendly in dev. */
function csp(): Plugin {
  return {
    name: 'lab-csp',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, ctx) => {
        const parts = html.split('%LAB_CSP%');
        if (parts.length !== 2) throw new Error('src-renderer/index.html must hold the %LAB_CSP% placeholder exactly once');
        return parts.join(ctx.server ? CSP_DEV : CSP);
      },
    },
  };
}

export default defineConfig({
  main: {
    // package.json's dependencies stay external (electron-vite's default): better-sqlite3 (native),
    // zod, ECharts, PDFKit, svg-to-pdfkit and csv-stringify load from node_modules at run time. The
    // simulation worker (src-main/electron/worker-path.ts, `?modulePath`) is its own chunk,
    // out/main/chunks/worker-<hash>.js, which electron-builder.json unpacks from the asar.
    build: {
      // store-check: the same bundled store without Electron, run by CI under Node (see store-check.ts).
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          'store-check': resolve(__dirname, 'src-main/electron/store-check.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be CommonJS (Electron does not load ES module preloads in the sandbox).
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    build: {
      rolldownOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
    plugins: [vue(), csp()],
  },
});
