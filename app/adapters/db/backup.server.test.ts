import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BackupError, holdPgliteLock, releasePgliteLock } from "./backup.server.ts";

/*
 * The embedded database's folder lock: a live holder on this host refuses others; a lock left by
 * a process on another host counts only while that process keeps refreshing it (a container
 * recreated under a new host name must not be locked out by its old self).
 */
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lk-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    releasePgliteLock(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

const foreignLock = (dir: string, ageMs: number) => {
  const file = path.join(dir, "pglite.lock");
  writeFileSync(
    file,
    JSON.stringify({ pid: 1, host: "another-host", purpose: "the shop", since: "earlier" }),
  );
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
};

describe("the embedded database's folder lock", () => {
  it("is taken, names its holder, and released", () => {
    const dir = fresh();
    holdPgliteLock(dir, "db:migrate");
    const lock = JSON.parse(readFileSync(path.join(dir, "pglite.lock"), "utf8"));
    expect(lock).toMatchObject({ pid: process.pid, purpose: "db:migrate" });
    releasePgliteLock(dir);
    holdPgliteLock(dir, "the shop");
  });

  it("refuses while another host's holder keeps its lock fresh", () => {
    const dir = fresh();
    foreignLock(dir, 1_000);
    expect(() => holdPgliteLock(dir)).toThrow(BackupError);
    expect(() => holdPgliteLock(dir)).toThrow(/in use by the shop \(process 1 on another-host/);
  });

  it("takes over a lock another host stopped refreshing", () => {
    const dir = fresh();
    foreignLock(dir, 5 * 60_000);
    holdPgliteLock(dir);
    const lock = JSON.parse(readFileSync(path.join(dir, "pglite.lock"), "utf8"));
    expect(lock.pid).toBe(process.pid);
  });
});
