import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Component tests import .vue files (happy-dom environment, chosen per file).
  plugins: [vue()],
  test: {
    include: ['tests/**/*.test.ts'],
    // The blind random-geometry suite is heavy: `npm run test:repro` (vitest.repro.config.ts).
    exclude: ['tests/repro/**', '**/node_modules/**'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
  },
});
