import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "./types.ts";

/** Normalises a storage path and refuses anything that could climb out of the root. */
export function safeStoragePath(storagePath: string): string {
  const parts = storagePath.split("/").filter((p) => p.length > 0);
  if (
    parts.length === 0 ||
    parts.some((p) => p === "." || p === ".." || p.includes("\\") || p.includes("\0"))
  ) {
    throw new Error(`Invalid storage path: ${JSON.stringify(storagePath)}`);
  }
  return parts.join("/");
}

/** Files under a folder on this machine, served by the app under `/uploads/`. */
export function createLocalStorage(root: string, publicPrefix = "/uploads"): FileStorage {
  const full = (p: string) => path.join(root, safeStoragePath(p));
  return {
    kind: "local",
    async put(storagePath, data, _contentType) {
      const file = full(storagePath);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    async get(storagePath) {
      try {
        return await readFile(full(storagePath));
      } catch {
        return null;
      }
    },
    async delete(storagePath) {
      await rm(full(storagePath), { force: true });
    },
    async exists(storagePath) {
      try {
        return (await stat(full(storagePath))).isFile();
      } catch {
        return false;
      }
    },
    url(storagePath) {
      return `${publicPrefix}/${safeStoragePath(storagePath).split("/").map(encodeURIComponent).join("/")}`;
    },
  };
}
