import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, safeStoragePath } from "./local.server.ts";

let root: string;
let storage: ReturnType<typeof createLocalStorage>;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "lk-storage-"));
  storage = createLocalStorage(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("local file storage", () => {
  it("stores, reads, lists and deletes a file", async () => {
    await storage.put("products/p1/1_a b.webp", Buffer.from("x"), "image/webp");
    expect(await storage.exists("products/p1/1_a b.webp")).toBe(true);
    expect((await storage.get("products/p1/1_a b.webp"))?.toString()).toBe("x");
    expect(storage.url("products/p1/1_a b.webp")).toBe("/uploads/products/p1/1_a%20b.webp");
    await storage.delete("products/p1/1_a b.webp");
    expect(await storage.exists("products/p1/1_a b.webp")).toBe(false);
  });

  it("refuses paths that climb out of its folder", () => {
    expect(() => safeStoragePath("../etc/passwd")).toThrow();
    expect(() => safeStoragePath("products/../../x")).toThrow();
    expect(() => safeStoragePath("")).toThrow();
    expect(safeStoragePath("/products//a.webp")).toBe("products/a.webp");
  });
});
