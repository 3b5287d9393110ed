import type { AppliedDiscount } from "./discounts.ts";

/*
 * An order's discounts as every summary of it shows them (/orders, the admin order, the e-mails
 * and the GST invoice): one row per code or offer, on the items or on the shipping, summing
 * exactly to the order's stored discount. The stored figures are the truth (the order's
 * discount_paise and its lines' shares); the applied discounts name them.
 */

export type OrderDiscountRow = {
  /** The discount's id (null for a part of the stored discount no applied discount names). */
  discountId: string | null;
  code: string | null;
  name: string;
  /** What it took off: the items (before tax) or the shipping. */
  on: "items" | "shipping";
  /** "Discount (DIWALI20)", "Discount (Festive offer)", "Free shipping (FREESHIP)". */
  label: string;
  amountPaise: number;
};

export type StoredOrderDiscounts = {
  appliedDiscounts: readonly AppliedDiscount[] | null | undefined;
  /** orders.discount_paise: the item discounts and the shipping discount together. */
  discountPaise: number;
  /** The sum of the lines' order_items.discount_paise. */
  lineDiscountPaise: number;
};

const nonNegative = (n: number) => (Number.isSafeInteger(n) && n > 0 ? n : 0);

/**
 * The label of a row: the code when there is one, else the offer's name ("Discount (DIWALI20)",
 * "Free shipping (FREESHIP)"); an offer already called "Free shipping …" keeps its own name.
 */
export function discountRowLabel(
  d: { code: string | null; name: string } | null,
  on: "items" | "shipping",
): string {
  const code = d?.code?.trim() ?? "";
  const name = d?.name.trim() ?? "";
  if (on === "items") return code || name ? `Discount (${code || name})` : "Discount";
  if (code) return `Free shipping (${code})`;
  if (/^free shipping\b/i.test(name)) return name;
  return name ? `Free shipping (${name})` : "Shipping discount";
}

/**
 * The rows of an order's discounts, in the order they were applied (the automatic offer, then
 * the code); rows worth nothing are left out. The item rows sum to the lines' shares and the
 * shipping rows to the rest of the stored discount, whatever the applied list says (a part it
 * doesn't name gets a plain "Discount" or "Shipping discount" row).
 */
export function orderDiscountRows(order: StoredOrderDiscounts): OrderDiscountRow[] {
  const total = nonNegative(order.discountPaise);
  let itemsLeft = Math.min(nonNegative(order.lineDiscountPaise), total);
  let shippingLeft = total - itemsLeft;
  const rows: OrderDiscountRow[] = [];
  const push = (
    d: Pick<AppliedDiscount, "discountId" | "code" | "name"> | null,
    on: OrderDiscountRow["on"],
    amountPaise: number,
  ) => {
    if (amountPaise <= 0) return;
    rows.push({
      discountId: d?.discountId ?? null,
      code: d?.code ?? null,
      name: d?.name ?? "",
      on,
      label: discountRowLabel(d, on),
      amountPaise,
    });
  };
  for (const d of order.appliedDiscounts ?? []) {
    const items = Math.min(nonNegative(d.itemsPaise), itemsLeft);
    itemsLeft -= items;
    push(d, "items", items);
    const shipping = Math.min(nonNegative(d.shippingPaise), shippingLeft);
    shippingLeft -= shipping;
    push(d, "shipping", shipping);
  }
  push(null, "items", itemsLeft);
  push(null, "shipping", shippingLeft);
  return rows;
}

/** What the rows took off the items and off the shipping. */
export function discountTotals(rows: readonly OrderDiscountRow[]): {
  itemsPaise: number;
  shippingPaise: number;
} {
  let itemsPaise = 0;
  let shippingPaise = 0;
  for (const row of rows) {
    if (row.on === "items") itemsPaise += row.amountPaise;
    else shippingPaise += row.amountPaise;
  }
  return { itemsPaise, shippingPaise };
}

/** The cart's and checkout's summary line: "DIWALI20 · Diwali 20% off" or the offer's name. */
export function appliedLabel(d: Pick<AppliedDiscount, "code" | "name">): string {
  return d.code ? `${d.code} · ${d.name}` : d.name;
}
