/**
 * Keeps a dropped model file in this browser (IndexedDB) while a signed-out visitor signs in, so
 * they don't have to find and drop them again. One project's files at most, taken once, only on the page the
 * sign-in returns to (`?resume=1`) and only within 30 minutes: a shared computer's next user
 * never gets someone else's file.
 */
const MAX_AGE_MS = 30 * 60 * 1000;
const DB = "layerkart";
const STORE = "pending-model";
const KEY = "file";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>) {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = fn(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

export async function keepPendingModels(files: File[]): Promise<void> {
  try {
    await run("readwrite", (s) => s.put({ files, savedAt: Date.now() }, KEY));
  } catch {
    // Private mode or no quota: the visitor drops the file again after signing in.
  }
}

export async function takePendingModels(): Promise<File[]> {
  try {
    const kept = await run<{ files?: unknown; file?: unknown; savedAt?: number } | undefined>(
      "readonly",
      (s) => s.get(KEY),
    );
    if (!kept) return [];
    await run("readwrite", (s) => s.delete(KEY));
    const fresh = typeof kept.savedAt === "number" && Date.now() - kept.savedAt < MAX_AGE_MS;
    // `file`: kept by the page before projects of several parts.
    const files = Array.isArray(kept.files) ? kept.files : [kept.file];
    return fresh ? files.filter((f): f is File => f instanceof File) : [];
  } catch {
    return [];
  }
}
