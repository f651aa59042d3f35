import vue from '@vitejs/plugin-vue';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Component tests import .vue files (happy-dom environment, chosen per file).
  plugins: [vue()],
  test: {
    include: ['tests/**/*.test.ts'],
    // Heavy reproductions (the blind random-geometry suites, the LASH and SL1 studies, the store under
    // gigabyte inputs, whole real-GPU characterisation replays) run in `npm run test:repro`
    // (vitest.repro.config.ts), which CI runs too.
    exclude: ['tests/repro/**', '**/node_modules/**'],
    // Every core: on a 2-core machine vitest's default (cores - 1) leaves one idle.
    maxWorkers: Math.max(1, availableParallelism()),
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
  },
});
