/**
 * Starts the built shop for the e2e tests on a fresh data folder (.tmp/e2e), so every run begins
 * from the demo seed. The folder's outbox is where the tests read e-mails from.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { findExecutable } from "../app/adapters/slicer/index.server.ts";

const root = path.resolve(import.meta.dirname, "..");
const e2eDataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? ".tmp/e2e");
const port = process.env.E2E_PORT ?? "3100";

rmSync(e2eDataDir, { recursive: true, force: true });

/*
 * The journeys always have a slicer (decision 0020): PrusaSlicer when it is installed (CI installs
 * it from Debian), else the fake one the integration tests use, which answers the same way at
 * once; E2E_SLICER_PATH chooses either (a path, or `none`).
 */
const slicer =
  process.env.E2E_SLICER_PATH ||
  (findExecutable("prusa-slicer")
    ? "prusa-slicer"
    : path.join(root, "tests/support/fake-slicer.sh"));
console.error(`e2e server: slicer ${slicer}`);
const child = spawn(process.execPath, [path.join(root, "server/index.ts")], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: port,
    HOST: "127.0.0.1",
    // No PUBLIC_URL, as `npm run shop` starts it: links say http://localhost:$PORT, and the shop
    // works on any address it is reached at (the journeys use localhost and 127.0.0.1).
    DATA_DIR: e2eDataDir,
    DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
    SLICER_PATH: slicer,
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
    DEMO_ADMIN_EMAIL: "admin@example.com",
    DEMO_ADMIN_PASSWORD: "demo-admin-password",
    ALLOW_SANDBOX_PAYMENTS: "true",
    SEED_DEMO: "auto",
    ALLOW_DEMO_SEED: "true",
    // As if behind a reverse proxy: each test sends its own X-Forwarded-For (tests/e2e/fixtures.ts).
    TRUST_PROXY: "true",
    // The courier is Shiprocket, pointed at the local fake the courier journey starts on this
    // port (tests/e2e/courier.spec.ts); no other journey calls it.
    SHIPPING_PROVIDER: "shiprocket",
    SHIPROCKET_EMAIL: "api-user@example.com",
    SHIPROCKET_PASSWORD: "api-password-1",
    SHIPROCKET_WEBHOOK_TOKEN: "e2e-courier-webhook-token-0123",
    SHIPROCKET_API_URL: `http://127.0.0.1:${Number(port) + 1000}/v1/external`,
  },
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => child.kill("SIGTERM"));
}
child.on("exit", (code) => process.exit(code ?? 0));
