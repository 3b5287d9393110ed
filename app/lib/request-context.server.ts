import { AsyncLocalStorage } from "node:async_hooks";

type RequestStore = { requestId: string };

// Kept on globalThis so the custom server and the app bundle share one store.
const key = Symbol.for("layerkart.request-context");
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestStore> | undefined>;
g[key] ??= new AsyncLocalStorage<RequestStore>();
const storage: AsyncLocalStorage<RequestStore> = g[key];

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
