import type { Zone } from "./delivery.ts";
import { formatPaise } from "./money.ts";
import type { RateTable } from "./shipping-rates.ts";

/*
 * Cash on delivery by zone (issue 24), pure: the shop's switch turns it off everywhere; otherwise
 * the delivery PIN's zone (app/rules/delivery.ts `zoneBetween`) says whether it is offered, up to
 * which order total, and for what fee. The limit is weighed against the order's total before the
 * fee (goods, shipping and tax, less discounts): what the PIN box and the cart show as the amount.
 * Both the zone's limit and the shop-wide "COD maximum order value" apply; the smaller wins.
 */

/** The shop-wide settings: the switch and the maximum order value (null: none). */
export type CodShop = { enabled: boolean; maxOrderPaise: number | null };

export type CodVerdict =
  | { kind: "available"; feePaise: number; limitPaise: number | null }
  /** The shop's switch is off. */
  | { kind: "off" }
  /** The zone doesn't take cash on delivery (its limit is ₹0). */
  | { kind: "zone-off"; zone: Zone }
  | { kind: "over-limit"; limitPaise: number };

/**
 * The largest order paid on delivery in a zone: the smaller of the zone's and the shop's limits.
 * No zone (a database whose PIN directory was never loaded): the shop's limit alone.
 */
export function codLimit(shop: CodShop, table: RateTable, zone: Zone | null): number | null {
  const limits = [zone ? table[zone].codLimitPaise : null, shop.maxOrderPaise].filter(
    (l): l is number => l !== null,
  );
  return limits.length === 0 ? null : Math.max(0, Math.min(...limits));
}

/** The zone's fee for paying on delivery: never negative, whole paise (no zone: none). */
export function codFee(table: RateTable, zone: Zone | null): number {
  if (zone === null) return 0;
  const fee = table[zone].codFeePaise;
  return Number.isFinite(fee) ? Math.max(0, Math.round(fee)) : 0;
}

/**
 * Whether an order of this amount to this zone may be paid on delivery, and its fee. An amount not
 * known yet (null: a page without a price) is only weighed against the switch and the zone.
 */
export function codFor(
  shop: CodShop,
  table: RateTable,
  zone: Zone | null,
  amountPaise: number | null,
): CodVerdict {
  if (!shop.enabled) return { kind: "off" };
  if (zone !== null && table[zone].codLimitPaise === 0) return { kind: "zone-off", zone };
  const limitPaise = codLimit(shop, table, zone);
  if (limitPaise !== null && amountPaise !== null && amountPaise > limitPaise) {
    return { kind: "over-limit", limitPaise };
  }
  return { kind: "available", feePaise: codFee(table, zone), limitPaise };
}

export const codText = {
  title: "Cash on Delivery unavailable",
  /** The shop-wide switch is off (the text checkout has always used). */
  off: "Cash on Delivery isn't available for this order. Please pay online.",
  zoneOff: (pin: string) =>
    `Cash on Delivery isn't available for PIN code ${pin}. Please pay online.`,
  overLimit: (limitPaise: number) =>
    `Cash on Delivery is available for orders up to ${formatPaise(limitPaise)}. Please pay online.`,
  feeLabel: "Cash on delivery fee",
} as const;

/** Why cash on delivery was refused, in the customer's words (null when it is available). */
export function codRefusal(verdict: CodVerdict, pin: string): string | null {
  switch (verdict.kind) {
    case "available":
      return null;
    case "off":
      return codText.off;
    case "zone-off":
      return codText.zoneOff(pin);
    case "over-limit":
      return codText.overLimit(verdict.limitPaise);
  }
}
