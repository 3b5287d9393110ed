import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
const integration = ["app/**/*.integration.test.ts", "tests/integration/**/*.test.ts"];
/*
 * On CI a test that meets a database, a server process or a notification runs again once when it
 * fails, as the browser journeys do (playwright.config.ts): `npm test` names every test that
 * passed only on its retry at the end of its output, so flakiness stays visible.
 */
const retry = process.env.CI ? 1 : 0;

/*
 * unit: pure rules and modules, no database.
 * integration-*: the same suite on the embedded database and on a PostgreSQL server
 * (a fresh database per test file on 127.0.0.1:5432 unless TEST_DATABASE_URL says otherwise).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "tests/lint/**/*.test.ts",
          ],
          exclude: [...integration, "node_modules/**"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-pglite",
          environment: "node",
          include: integration,
          env: { TEST_DB: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          retry,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-postgres",
          environment: "node",
          include: integration,
          env: { TEST_DB: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          retry,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "server",
          environment: "node",
          include: ["tests/server/**/*.test.ts"],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          retry,
        },
      },
    ],
  },
});
