import type { ShippingCarrier } from "~/adapters/shipping/index.server.ts";
import { log } from "~/lib/log.server.ts";
import type { CourierOffer } from "~/rules/courier-choice.ts";

/*
 * The courier account's rates for a parcel (issue 24; decision 0019), asked of the carrier by
 * PIN codes, chargeable weight and COD, and remembered briefly so the PIN box, the cart and
 * checkout ask once. A carrier that fails or is slow gives no offers: the caller charges the rate
 * table (a warning is logged) and checkout is never held up by the courier.
 */

export type CourierRateRequest = {
  pickupPin: string;
  deliveryPin: string;
  grams: number;
  cod: boolean;
};

/** The carrier's offers for a parcel; null when there is no courier account or it didn't answer. */
export type CourierRates = (request: CourierRateRequest) => Promise<CourierOffer[] | null>;

export type CourierRatesOptions = {
  /** How long an answer is reused (default 5 minutes). */
  ttlMs?: number;
  /** How long a failure is remembered, so a carrier that is down isn't asked on every page. */
  failureTtlMs?: number;
  /** The longest the shop waits for the carrier (default 3 s). */
  timeoutMs?: number;
  now?: () => number;
  maxEntries?: number;
};

/** Rates from the carrier, cached per (pickup PIN, delivery PIN, grams, COD). */
export function createCourierRates(
  carrier: ShippingCarrier,
  options: CourierRatesOptions = {},
): CourierRates {
  // The manual courier's rates are the shop's own table: there is nothing to ask.
  if (carrier.name === "manual") return async () => null;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const failureTtlMs = options.failureTtlMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 5_000;
  const cache = new Map<string, { until: number; answer: Promise<CourierOffer[] | null> }>();

  async function ask(request: CourierRateRequest): Promise<CourierOffer[] | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const answer = await Promise.race([carrier.serviceability(request), timeout]);
      return answer.serviceable ? answer.options : [];
    } finally {
      clearTimeout(timer);
    }
  }

  return (request) => {
    const key = `${request.pickupPin}|${request.deliveryPin}|${request.grams}|${request.cod ? 1 : 0}`;
    const t = now();
    const hit = cache.get(key);
    if (hit && hit.until > t) return hit.answer;
    if (cache.size >= maxEntries) {
      for (const [k, v] of cache) if (v.until <= t) cache.delete(k);
      if (cache.size >= maxEntries) cache.clear();
    }
    const entry = {
      until: t + ttlMs,
      answer: ask(request).catch((error) => {
        log.warning("courier rates unavailable: charging the rate table", {
          carrier: carrier.name,
          pin: request.deliveryPin,
          error,
        });
        entry.until = now() + failureTtlMs;
        return null;
      }),
    };
    cache.set(key, entry);
    return entry.answer;
  };
}
