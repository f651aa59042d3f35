import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests. Playwright cannot download browsers here: browser specs use Debian's chromium
 * (`apt-get install -y chromium`, or CHROME_PATH). The Electron spec launches the built app
 * (`npm run build` first) and skips, saying why, where no Electron binary is installed.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: 'test-results',
  use: {
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
});
