import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * Starts a local S3-compatible server (s3rver) in a child process with the given buckets, on a
 * free port, with its data in a temporary folder. stop() ends the process and removes the folder.
 */
export type LocalS3 = {
  endpoint: string;
  /** The variables that point the shop at it (add S3_BUCKET and the rest per test). */
  env: Record<string, string>;
  stop(): Promise<void>;
};

export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const dir = await mkdtemp(path.join(tmpdir(), "lk-s3-"));
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "s3rver-process.ts")], {
    env: { ...process.env, S3RVER_DIR: dir, S3RVER_BUCKETS: buckets.join(",") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (d) => {
    errors += d;
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${errors}`)), 20_000);
    child.stdout?.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}): ${errors}`));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
