import { defineConfig } from "@playwright/test";

// E2E_PORT, E2E_DATA_DIR and BUILD_DIR let two checkouts run their journeys side by side.
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;

/*
 * Journeys in Debian's Chromium (never a downloaded browser) against the built server, started
 * with a fresh data folder: `npm run build` must have run first (npm test does).
 */
export default defineConfig({
  testDir: "tests/e2e",
  // One output folder per server port, so side-by-side runs don't delete each other's artifacts.
  outputDir: `test-results/port-${port}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node scripts/e2e-server.ts",
    url: `${baseURL}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      E2E_PORT: String(port),
      E2E_DATA_DIR: process.env.E2E_DATA_DIR ?? ".tmp/e2e",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
  },
});
