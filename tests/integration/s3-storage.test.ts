import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorages } from "~/adapters/storage/index.server.ts";
import { createS3Client, createS3Storage } from "~/adapters/storage/s3.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import { parseEnv } from "~/config/env.server.ts";
import { type LocalS3, startLocalS3 } from "../support/s3-server.ts";

/*
 * The object-storage adapter against a local S3-compatible server (s3rver, its own process):
 * bytes and content types round-trip, missing keys read as missing, bad paths are refused, URLs
 * are public or the shop's own, signed links work, and customers' model files are kept apart from
 * the public files.
 */

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3(["layerkart-files", "layerkart-models"]);
}, 30_000);
afterAll(async () => {
  await s3?.stop();
});

const config = (extra: Record<string, string> = {}) =>
  parseEnv({
    DATA_DIR: ".tmp/s3-test",
    AUTH_SECRET: "x".repeat(32),
    ...s3.env,
    S3_BUCKET: "layerkart-files",
    ...extra,
  });

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256);

describe("S3-compatible storage", () => {
  let storage: FileStorage;
  let privateFiles: FileStorage;
  beforeAll(() => {
    ({ storage, privateFiles } = createStorages(config()));
  });

  it("round-trips binary bytes byte for byte, with the content type", async () => {
    const data = bytes(300_000);
    await storage.put("products/p1/1700000000_lamp.webp", data, "image/webp");
    const back = await storage.get("products/p1/1700000000_lamp.webp");
    expect(back).not.toBeNull();
    expect(Buffer.compare(back!, Buffer.from(data))).toBe(0);
    const res = await fetch(await storage.signedUrl!("products/p1/1700000000_lamp.webp", 60));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(data))).toBe(0);
  });

  it("reads a missing key as missing; delete is idempotent", async () => {
    expect(await storage.get("products/none/missing.webp")).toBeNull();
    expect(await storage.exists("products/none/missing.webp")).toBe(false);
    await storage.put("products/p2/a.webp", bytes(10), "image/webp");
    expect(await storage.exists("products/p2/a.webp")).toBe(true);
    await storage.delete("products/p2/a.webp");
    await storage.delete("products/p2/a.webp");
    expect(await storage.get("products/p2/a.webp")).toBeNull();
    expect(await storage.exists("products/p2/a.webp")).toBe(false);
  });

  it("refuses paths that climb out", async () => {
    for (const bad of ["../x", "a/../../b", "", "a/./b", "a\\b"]) {
      await expect(storage.put(bad, bytes(1), "image/webp")).rejects.toThrow(
        /Invalid storage path/,
      );
      expect(() => storage.url(bad)).toThrow(/Invalid storage path/);
    }
  });

  it("gives the shop's own /uploads URL, or the public base when one is set", () => {
    expect(storage.url("products/p1/a b.webp")).toBe("/uploads/products/p1/a%20b.webp");
    const cdn = createStorages(config({ S3_PUBLIC_URL: "https://cdn.example.com/" })).storage;
    expect(cdn.url("products/p1/a b.webp")).toBe(
      "https://cdn.example.com/uploads/products/p1/a%20b.webp",
    );
  });

  it("keeps customers' model files apart, with no public URL", async () => {
    await privateFiles.put("quotes/q1.stl", bytes(84), "model/stl");
    expect(await privateFiles.get("quotes/q1.stl")).not.toBeNull();
    // Not reachable as a public file, not even by climbing.
    expect(await storage.get("quotes/q1.stl")).toBeNull();
    expect(await storage.get("../private/quotes/q1.stl").catch(() => null)).toBeNull();
    expect(privateFiles.url("quotes/q1.stl")).toMatch(/^\/no-public-url\//);
    // Under private/ in the same bucket, beside the public prefix.
    const raw = createS3Storage(createS3Client(config().s3!), {
      bucket: "layerkart-files",
      prefix: "",
      urlBase: "/x",
    });
    expect(await raw.exists("private/quotes/q1.stl")).toBe(true);
    expect(await raw.exists("uploads/products/p1/1700000000_lamp.webp")).toBe(true);
  });

  it("can keep model files in a bucket of their own", async () => {
    const split = createStorages(config({ S3_PRIVATE_BUCKET: "layerkart-models" }));
    await split.privateFiles.put("quotes/q2.stl", bytes(84), "model/stl");
    const models = createS3Storage(createS3Client(config().s3!), {
      bucket: "layerkart-models",
      prefix: "",
      urlBase: "/x",
    });
    expect(await models.exists("quotes/q2.stl")).toBe(true);
  });

  it("an unknown bucket fails loudly rather than reading as empty", async () => {
    const wrong = createStorages(config({ S3_BUCKET: "no-such-bucket" })).storage;
    await expect(wrong.put("products/x.webp", bytes(1), "image/webp")).rejects.toThrow();
  });
});

describe("S3 configuration", () => {
  it("requires a bucket and keeps the public prefix away from private/", () => {
    expect(() => parseEnv({ AUTH_SECRET: "x".repeat(32), STORAGE: "s3" })).toThrow(/S3_BUCKET/);
    expect(() =>
      parseEnv({
        AUTH_SECRET: "x".repeat(32),
        STORAGE: "s3",
        S3_BUCKET: "b",
        S3_PREFIX: "private/",
      }),
    ).toThrow(/S3_PREFIX/);
    expect(() =>
      parseEnv({ AUTH_SECRET: "x".repeat(32), STORAGE: "s3", S3_BUCKET: "b", S3_PREFIX: "a/../b" }),
    ).toThrow(/S3_PREFIX/);
    const ok = parseEnv({
      AUTH_SECRET: "x".repeat(32),
      STORAGE: "s3",
      S3_BUCKET: "b",
      S3_PREFIX: "media",
    });
    expect(ok.s3).toMatchObject({ bucket: "b", prefix: "media/", forcePathStyle: false });
    expect(parseEnv({ AUTH_SECRET: "x".repeat(32) }).s3).toBeNull();
  });
});
