import { defineConfig } from 'vitest/config';

/**
 * Heavy reproductions (`npm run test:repro`): the blind random-geometry suites of the analysers, the
 * LASH and SL1 studies' rows, the store under gigabyte inputs, and the real-GPU characterisations
 * replayed whole through the analysers.
 */
export default defineConfig({
  test: {
    include: ['tests/repro/**/*.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    pool: 'forks',
  },
});
