import { defineConfig } from 'vitest/config';

/** Heavy reproductions: the blind random-geometry suite of the analysers (`npm run test:repro`). */
export default defineConfig({
  test: {
    include: ['tests/repro/**/*.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    pool: 'forks',
  },
});
