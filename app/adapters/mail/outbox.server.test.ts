import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createOutboxMailer } from "./index.server.ts";

/* The outbox: each e-mail appears whole under its .eml name (written aside, then renamed). */

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("outbox mailer", () => {
  it("leaves only complete .eml files, one per message", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lk-outbox-"));
    dirs.push(dir);
    const mailer = createOutboxMailer(dir, "LayerKart <shop@example.com>");
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        mailer.send({ to: `c${i}@example.com`, subject: `Order ${i} confirmed`, text: "Thanks" }),
      ),
    );
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith(".eml"))).toHaveLength(5);
    expect(files.filter((f) => !f.endsWith(".eml"))).toEqual([]);
    const text = await readFile(path.join(dir, files[0]), "utf8");
    expect(text).toMatch(/^Subject: Order \d confirmed$/m);
  });
});
