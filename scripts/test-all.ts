/**
 * `npm test`: everything that guards main, in order — format and lint, types, the build, unit
 * tests, the integration suite on PGlite and on PostgreSQL, the built server as a process, and the
 * browser journeys in Chromium. Ends with one line: "N passed, N failed".
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const reports = path.join(root, ".tmp/reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name: string) => path.join(root, "node_modules/.bin", name);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];

function run(label: string, command: string, args: string[]): boolean {
  process.stdout.write(`\n── ${label} ──\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) failures.push(label);
  return result.status === 0;
}

async function postgresReachable(): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return `${url}: ${(error as Error).message}`;
  }
}

run("format and lint (biome)", bin("biome"), ["check", "."]);
run("typecheck", bin("react-router"), ["typegen"]) && run("typecheck", bin("tsc"), []);
const built = run("build", bin("react-router"), ["build"]);

const pgProblem = await postgresReachable();
if (pgProblem) {
  process.stdout.write(
    `\nPostgreSQL is not reachable (${pgProblem}).\nStart it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n`,
  );
  failures.push("PostgreSQL for the integration suite");
}

const vitestReport = path.join(reports, "vitest.json");
const projects = ["unit", "integration-pglite", ...(pgProblem ? [] : ["integration-postgres"])];
if (built) projects.push("server");
run("unit, integration and server tests (vitest)", bin("vitest"), [
  "run",
  ...projects.flatMap((p) => ["--project", p]),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
/** Tests named at the end of the output (a long run's log is often read from its tail only). */
const named: { failed: string[]; retried: string[] } = { failed: [], retried: [] };
if (existsSync(vitestReport)) {
  const r = JSON.parse(readFileSync(vitestReport, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    // A file that failed with no test failing: its loading or a hook (not retried) failed.
    if (file.status === "failed" && !tests.some((t: { status: string }) => t.status === "failed"))
      named.failed.push(
        `${path.relative(root, file.name)} (the file)\n    ${String(file.message ?? "")
          .split("\n")[0]
          ?.slice(0, 300)}`,
      );
    for (const t of tests) {
      const messages: string[] = t.failureMessages ?? [];
      const where = `${path.relative(root, file.name)} › ${t.fullName}`;
      const why = (messages[0] ?? "").split("\n")[0]?.slice(0, 300);
      // A test that passed with failures recorded passed on a retry (CI retries once).
      if (t.status === "failed") named.failed.push(`${where}\n    ${why}`);
      else if (t.status === "passed" && messages.length > 0)
        named.retried.push(`${where}\n    ${why}`);
    }
  }
}

if (built) {
  const playwrightReport = path.join(reports, "playwright.json");
  process.stdout.write("\n── browser journeys (playwright) ──\n");
  const ok = spawnSync(bin("playwright"), ["test", "--reporter=list,json"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  });
  if (ok.status !== 0) failures.push("browser journeys (playwright)");
  if (existsSync(playwrightReport)) {
    const stats = JSON.parse(readFileSync(playwrightReport, "utf8")).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
  }
}

process.stdout.write("\n");
if (named.retried.length > 0)
  process.stdout.write(`Passed only on a retry (vitest):\n  ${named.retried.join("\n  ")}\n`);
if (named.failed.length > 0)
  process.stdout.write(`Failed (vitest):\n  ${named.failed.join("\n  ")}\n`);
if (failures.length > 0) process.stdout.write(`Failed steps: ${failures.join("; ")}\n`);
if (failures.length > 0 && failed === 0) failed = Math.max(failures.length, named.failed.length);
process.stdout.write(
  `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`,
);
process.exit(failures.length > 0 || failed > 0 ? 1 : 0);
