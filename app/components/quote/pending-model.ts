/**
 * Keeps a dropped model file in this browser (IndexedDB) while a signed-out visitor signs in, so
 * they don't have to find and drop it again. One file at most; taken once.
 */
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

export async function keepPendingModel(file: File): Promise<void> {
  try {
    await run("readwrite", (s) => s.put(file, KEY));
  } catch {
    // Private mode or no quota: the visitor drops the file again after signing in.
  }
}

export async function takePendingModel(): Promise<File | null> {
  try {
    const file = await run<File | undefined>("readonly", (s) => s.get(KEY));
    if (!file) return null;
    await run("readwrite", (s) => s.delete(KEY));
    return file instanceof File ? file : null;
  } catch {
    return null;
  }
}
