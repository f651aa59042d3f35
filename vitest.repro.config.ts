import { defineConfig } from 'vitest/config';

/**
 * Heavy reproductions (`npm run test:repro`): the blind random-geometry suites of the analysers, the
 * LASH and SL1 studies' rows, and the store under gigabyte inputs.
 */
export default defineConfig({
  test: {
    include: ['tests/repro/**/*.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    pool: 'forks',
  },
});
