import { RateLimiterDrizzle, RateLimiterMemory } from "rate-limiter-flexible";
import type { Database } from "~/adapters/db/index.server.ts";
import { formRateLimits } from "~/db/schema.ts";
import { CLIENT_IP_HEADER } from "./client-ip.ts";

/*
 * Limits for the forms anyone can send without an account (contact, newsletter, offer interest)
 * and for model uploads (large bodies, parsed on the server), per client address (the server sets
 * the address header from the socket or the trusted proxy).
 * Counted in the database (table form_rate_limits), so several instances share one count; if the
 * database can't answer, each instance falls back to counting in its own memory. Sign-in and
 * registration have Better Auth's own, database-backed limits.
 */

const limits = {
  contact: { points: 5, duration: 60 },
  newsletter: { points: 10, duration: 60 },
  "promotion-interest": { points: 10, duration: 60 },
  /** Model files for custom-print quotes: up to 100 MB each, so fewer. */
  "model-upload": { points: 20, duration: 600 },
} as const;

export type RateLimitBucket = keyof typeof limits;

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";

type Limiters = Record<RateLimitBucket, RateLimiterDrizzle>;
const byDatabase = new WeakMap<Database, Limiters>();

function limitersFor(db: Database): Limiters {
  let limiters = byDatabase.get(db);
  if (!limiters) {
    limiters = Object.fromEntries(
      Object.entries(limits).map(([name, opts]) => [
        name,
        new RateLimiterDrizzle({
          storeClient: db,
          schema: formRateLimits,
          keyPrefix: name,
          ...opts,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, ...opts }),
        }),
      ]),
    ) as Limiters;
    byDatabase.set(db, limiters);
  }
  return limiters;
}

/**
 * Counts one request; returns null when it may go ahead, or the seconds to wait (send them as
 * Retry-After with a 429).
 */
export async function rateLimited(
  db: Database,
  request: Request,
  bucket: RateLimitBucket,
): Promise<number | null> {
  const key = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  try {
    await limitersFor(db)[bucket].consume(key);
    return null;
  } catch (rejection) {
    const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}
