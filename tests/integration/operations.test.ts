import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, testDbKind } from "../support/test-database.ts";

/*
 * The operations scripts (issue: production mode): `npm run db:migrate` and `npm run create-admin`
 * run as their own processes against this project's kind of database, as an operator would.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const node = path.join(root, "node_modules/.bin/node");

let dataDir: string;
let databaseUrl = "";
let destroy: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "lk-ops-"));
  if (testDbKind() === "postgres") {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    destroy = created.drop;
  }
}, 120_000);

afterAll(async () => {
  await destroy?.();
  await rm(dataDir, { recursive: true, force: true });
});

const script = (name: string, args: string[] = []) =>
  run(node, [path.join(root, "scripts", name), ...args], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED_DEMO: "never",
      LOG_LEVEL: "error",
    },
  });

describe(`operations scripts on ${testDbKind()}`, () => {
  it("db:migrate migrates, and create-admin makes a verified admin who can sign in", async () => {
    const migrated = await script("db-migrate.ts");
    expect(migrated.stdout).toMatch(/^Migrations applied \((pglite|postgres)\)/);

    const created = await script("create-admin.ts", [
      "--email",
      "Owner@Example.com",
      "--name",
      "Shop Owner",
      "--password",
      "owner-password-123",
    ]);
    expect(created.stdout).toContain("Admin created: owner@example.com");
    expect(created.stdout).not.toContain("owner-password-123");
    const again = await script("create-admin.ts", ["--email", "owner@example.com"]);
    expect(again.stdout).toContain("owner@example.com is already an admin.");
    await expect(script("create-admin.ts", ["--email", "not-an-email"])).rejects.toMatchObject({
      code: 2,
    });

    // The shop on the same database: the new admin signs in and is an admin.
    const { startProcessRuntime, signInCookie } = await import("../support/accounts.ts");
    const { getViewer } = await import("~/modules/accounts/viewer.server.ts");
    const harness = await startProcessRuntime({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    try {
      const cookie = await signInCookie(harness.rt.auth, {
        email: "owner@example.com",
        password: "owner-password-123",
      });
      const viewer = await getViewer(
        harness.rt,
        new Request("http://localhost:3000/", { headers: { cookie } }),
      );
      expect(viewer).toMatchObject({ email: "owner@example.com", isAdmin: true });
    } finally {
      await harness.stop();
    }
  }, 120_000);
});
