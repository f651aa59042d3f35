import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';

// Electron's binary may be absent (it is an optionalDependency, see README); electron-vite reads the
// major version from electron/package.json unless ELECTRON_MAJOR_VER is set.
const __dirname = dirname(fileURLToPath(import.meta.url));
process.env.ELECTRON_MAJOR_VER ??= '41';

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src-main/electron/main.ts') } },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src-main/electron/preload.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
    plugins: [vue()],
  },
});
