import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

/*
 * The built server as a child process, for the tests under tests/server (they need
 * `npm run build` first; npm test does it).
 */
export const projectRoot = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export type Started = { child: ChildProcess; output: () => string; port: number };

/** Starts server/index.ts with NODE_ENV=production on 127.0.0.1 and the given variables. */
export function startServer(env: Record<string, string>): Started {
  // SERVER_ENTRY runs another copy of the server (checking a test against an older one).
  const entry = process.env.SERVER_ENTRY ?? "server/index.ts";
  const child = spawn(process.execPath, [path.join(projectRoot, entry)], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  return { child, output: () => out, port: Number(env.PORT) };
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** Waits until /readyz answers 200; throws if the process exits first. */
export async function waitReady(port: number, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become ready");
}

/** SIGTERM, then waits for the exit. */
export async function stopServer(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  started.child.kill("SIGTERM");
  await exited(started.child);
}
