import { RateLimiterMemory } from "rate-limiter-flexible";
import { CLIENT_IP_HEADER } from "./client-ip.ts";

/*
 * Limits for the forms anyone can send without an account (contact, newsletter, offer interest)
 * and for model uploads (large bodies, parsed on the server), per client address (the server sets
 * the address header from the socket or the trusted proxy).
 * Kept in this process's memory: with several instances each counts its own share, which still
 * stops a script hammering one form. Sign-in and registration have Better Auth's own,
 * database-backed limits.
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

const limiters = Object.fromEntries(
  Object.entries(limits).map(([name, opts]) => [
    name,
    new RateLimiterMemory({ keyPrefix: name, ...opts }),
  ]),
) as Record<RateLimitBucket, RateLimiterMemory>;

/**
 * Counts one request; returns null when it may go ahead, or the seconds to wait (send them as
 * Retry-After with a 429).
 */
export async function rateLimited(
  request: Request,
  bucket: RateLimitBucket,
): Promise<number | null> {
  const key = request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
  try {
    await limiters[bucket].consume(key);
    return null;
  } catch (rejection) {
    const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}
