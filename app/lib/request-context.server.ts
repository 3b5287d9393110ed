import { AsyncLocalStorage } from "node:async_hooks";
import type { PageCacheTicket } from "./page-cache.server.ts";

type RequestStore = {
  requestId: string;
  dbQueries: number;
  /** Set by the server when this request may store its page in the page cache. */
  pageCacheTicket?: PageCacheTicket;
};

// Kept on globalThis so the custom server and the app bundle share one store.
const key = Symbol.for("layerkart.request-context");
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestStore> | undefined>;
g[key] ??= new AsyncLocalStorage<RequestStore>();
const storage: AsyncLocalStorage<RequestStore> = g[key];

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId, dbQueries: 0 }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Called for every database query; counts it against the current request, if any. */
export function countDatabaseQuery(): void {
  const store = storage.getStore();
  if (store) store.dbQueries += 1;
}

/** How many database queries the current request has made so far. */
export function currentQueryCount(): number {
  return storage.getStore()?.dbQueries ?? 0;
}

/** Lets the page this request renders be stored under the ticket (app/lib/page-cache.server.ts). */
export function setPageCacheTicket(ticket: PageCacheTicket): void {
  const store = storage.getStore();
  if (store) store.pageCacheTicket = ticket;
}

export function currentPageCacheTicket(): PageCacheTicket | undefined {
  return storage.getStore()?.pageCacheTicket;
}

/**
 * This request's page must not be kept (e.g. a part of it failed to load and was left out): it is
 * still sent, but the next visitor gets a fresh render.
 */
export function skipPageCache(): void {
  const store = storage.getStore();
  if (store) store.pageCacheTicket = undefined;
}
