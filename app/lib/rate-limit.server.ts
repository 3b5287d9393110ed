import { RateLimiterDrizzle, RateLimiterMemory } from "rate-limiter-flexible";
import type { Database } from "~/adapters/db/index.server.ts";
import { formRateLimits } from "~/db/schema.ts";
import { CLIENT_IP_HEADER } from "./client-ip.ts";

/*
 * Limits for the forms anyone can send without an account (contact, newsletter, offer interest)
 * and for model uploads (large bodies, parsed on the server), per client address (the server sets
 * the address header from the socket or the trusted proxy).
 * Counted in the database (table form_rate_limits), so several instances share one count; if the
 * database can't answer, each instance falls back to counting in its own memory. Registration and
 * the e-mail endpoints have Better Auth's own, database-backed limits; sign-in has those and the
 * failure counts below (signInThrottle).
 */

const limits = {
  contact: { points: 5, duration: 60 },
  newsletter: { points: 10, duration: 60 },
  "promotion-interest": { points: 10, duration: 60 },
  /** PIN code look-ups (the delivery estimate): a visitor tries a few; a script walking the
   * directory is slowed down. */
  "delivery-estimate": { points: 60, duration: 60 },
  /** Discount codes priced in the cart: a customer tries a few and the cart re-prices a kept code
   * on each change; a script guessing codes is slowed down. */
  "discount-code": { points: 60, duration: 60 },
  /** Model files for custom-print quotes: up to 100 MB each, so fewer; enough for a project of
   * 50 parts (issue 26) and a few tries again. */
  "model-upload": { points: 60, duration: 600 },
} as const;

export type RateLimitBucket = keyof typeof limits;

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";

type Limits = Record<string, { points: number; duration: number }>;
const byDatabase = new WeakMap<Database, WeakMap<Limits, Record<string, RateLimiterDrizzle>>>();

function limitersFor<L extends Limits>(db: Database, set: L): Record<keyof L, RateLimiterDrizzle> {
  let sets = byDatabase.get(db);
  if (!sets) {
    sets = new WeakMap();
    byDatabase.set(db, sets);
  }
  let limiters = sets.get(set);
  if (!limiters) {
    limiters = Object.fromEntries(
      Object.entries(set).map(([name, opts]) => [
        name,
        new RateLimiterDrizzle({
          storeClient: db,
          schema: formRateLimits,
          keyPrefix: name,
          ...opts,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, ...opts }),
        }),
      ]),
    );
    sets.set(set, limiters);
  }
  return limiters as Record<keyof L, RateLimiterDrizzle>;
}

/**
 * Counts one request; returns null when it may go ahead, or the seconds to wait (send them as
 * Retry-After with a 429).
 */
export async function rateLimited(
  db: Database,
  request: Request,
  bucket: RateLimitBucket,
  /** Counted per signed-in customer instead of per address (many share one behind a carrier's NAT). */
  customerId?: string,
): Promise<number | null> {
  const key = customerId
    ? `user:${customerId}`
    : (request.headers.get(CLIENT_IP_HEADER) ?? "unknown");
  try {
    await limitersFor(db, limits)[bucket].consume(key);
    return null;
  } catch (rejection) {
    const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}

/*
 * Sign-in failures (issue 20), counted three ways so that one address can't lock everyone behind
 * it out and many addresses can't share the guessing of one account's password:
 * - per address and account: the customer who mistypes, or one machine guessing one account;
 * - per account, from anywhere: guesses spread over many addresses;
 * - per address, over any account: one machine trying many accounts (a leaked list).
 * Only wrong passwords count; a correct one clears its address-and-account count. Better Auth's
 * own per-address limit stays as a flood guard well above these.
 *
 * The per-account count must not let a stranger lock the owner out by guessing wrong on purpose:
 * an address the account has signed in from before (within 30 days) is not held back by it, and
 * a password reset clears it (the throttle message says to reset).
 */
const signInLimits = {
  "sign-in-pair": { points: 10, duration: 10 * 60 },
  "sign-in-account": { points: 20, duration: 60 * 60 },
  "sign-in-address": { points: 100, duration: 60 * 60 },
  /** Addresses an account has signed in from (a point each), not a limit. */
  "sign-in-known": { points: 1_000_000, duration: 30 * 24 * 60 * 60 },
} as const;

export const SIGN_IN_THROTTLED_MESSAGE =
  "Too many sign-in attempts. Please wait a few minutes and try again, or reset your password.";

export function signInThrottle(db: Database) {
  const limiters = () => limitersFor(db, signInLimits);
  const account = (email: string) => email.trim().toLowerCase();
  const keys = (ip: string, email: string) =>
    ({
      "sign-in-pair": `${ip}|${account(email)}`,
      "sign-in-account": account(email),
      "sign-in-address": ip,
    }) as const;
  const known = (ip: string, email: string) => `${ip}|${account(email)}`;
  return {
    /** Seconds to wait when any count is used up; null when the attempt may go ahead. */
    async wait(ip: string, email: string): Promise<number | null> {
      const all = limiters();
      const familiar = await all["sign-in-known"].get(known(ip, email)).catch(() => null);
      let wait = 0;
      for (const [bucket, key] of Object.entries(keys(ip, email))) {
        const name = bucket as keyof ReturnType<typeof keys>;
        if (name === "sign-in-account" && familiar && familiar.consumedPoints > 0) continue;
        const res = await all[name].get(key).catch(() => null);
        if (res && res.consumedPoints >= signInLimits[name].points) {
          wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
        }
      }
      return wait > 0 ? wait : null;
    },
    async failed(ip: string, email: string): Promise<void> {
      const all = limiters();
      for (const [bucket, key] of Object.entries(keys(ip, email))) {
        await all[bucket as keyof ReturnType<typeof keys>].consume(key).catch(() => undefined);
      }
    },
    async succeeded(ip: string, email: string): Promise<void> {
      const all = limiters();
      await all["sign-in-pair"].delete(keys(ip, email)["sign-in-pair"]).catch(() => false);
      await all["sign-in-known"].consume(known(ip, email)).catch(() => undefined);
    },
    /** A new password was set by reset: the account's own count starts again. */
    async passwordReset(email: string): Promise<void> {
      await limiters()
        ["sign-in-account"].delete(account(email))
        .catch(() => false);
    },
  };
}
