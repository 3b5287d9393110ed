import path from "node:path";
import type { Env } from "~/config/env.server.ts";
import { createLocalStorage } from "./local.server.ts";
import { createS3Client, createS3Storage } from "./s3.server.ts";
import type { FileStorage } from "./types.ts";

export type Storages = {
  /** Product and promotion images: public. */
  storage: FileStorage;
  /** Customers' model files: served only through guarded routes, never by a public URL. */
  privateFiles: FileStorage;
};

/** The configured storage: folders in DATA_DIR, or an S3-compatible bucket (STORAGE=s3). */
export function createStorages(config: Pick<Env, "storage" | "dataDir" | "s3">): Storages {
  if (config.storage === "local" || !config.s3) {
    return {
      storage: createLocalStorage(path.join(config.dataDir, "uploads")),
      privateFiles: createLocalStorage(path.join(config.dataDir, "private"), "/no-public-url"),
    };
  }
  const s3 = config.s3;
  const client = createS3Client(s3);
  return {
    storage: createS3Storage(client, {
      bucket: s3.bucket,
      prefix: s3.prefix,
      urlBase: s3.publicUrl ?? "/uploads",
    }),
    privateFiles: createS3Storage(client, {
      bucket: s3.privateBucket ?? s3.bucket,
      prefix: s3.privateBucket ? "" : "private/",
      urlBase: "/no-public-url",
    }),
  };
}
