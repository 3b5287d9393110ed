import { z } from "zod";
import {
  canMoveOrder,
  canMovePayment,
  type OrderStatus,
  type PaymentStatus,
} from "~/rules/orders.ts";

/*
 * The admin's order screens (issue 7: /admin/orders): the list's filters as they travel in the
 * URL, the actions DESIGN.md decision 5 allows for an order's current state, the ship form, and
 * CSV cells. Shared by the server and the browser; no I/O.
 */

export const ORDER_STATUSES: readonly OrderStatus[] = [
  "pending",
  "processing",
  "shipped",
  "delivered",
  "cancelled",
  "refunded",
  "returned",
];

export const ADMIN_ORDERS_PAGE_SIZE = 25;
/** The longest search text the list accepts (longer input is cut). */
export const ORDER_SEARCH_MAX = 100;

export type OrderView = "all" | "returns";

export type OrderFilters = {
  status: OrderStatus | null;
  /** yyyy-mm-dd, a day in India (Asia/Kolkata), inclusive. */
  from: string | null;
  to: string | null;
  q: string;
  /** "returns": only orders whose return request awaits a decision. */
  view: OrderView;
  page: number;
};

export const emptyFilters: OrderFilters = {
  status: null,
  from: null,
  to: null,
  q: "",
  view: "all",
  page: 1,
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written yyyy-mm-dd, else null. */
export function parseDay(value: string | null | undefined): string | null {
  const m = DAY.exec(value?.trim() ?? "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return null;
  }
  if (y < 2000 || y > 2999) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** Reads the list's filters from a URL's query; anything unreadable is left out, not an error. */
export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  const status = params.get("status");
  const page = Number(params.get("page"));
  return {
    status: ORDER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : null,
    from: parseDay(params.get("from")),
    to: parseDay(params.get("to")),
    q: (params.get("q") ?? "").trim().slice(0, ORDER_SEARCH_MAX),
    view: params.get("view") === "returns" ? "returns" : "all",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string for filters (without "?"); defaults are left out. `page` only when > 1. */
export function orderFiltersQuery(
  filters: Partial<OrderFilters>,
  options: { page?: boolean } = { page: true },
): string {
  const params = new URLSearchParams();
  if (filters.view === "returns") params.set("view", "returns");
  if (filters.status) params.set("status", filters.status);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.q) params.set("q", filters.q);
  if (options.page !== false && filters.page && filters.page > 1) {
    params.set("page", String(filters.page));
  }
  return params.toString();
}

/** Are any filters (other than the page) set? */
export const hasFilters = (f: OrderFilters) =>
  Boolean(f.status || f.from || f.to || f.q || f.view === "returns");

/** `%`, `_` and `\` match themselves in an ILIKE pattern built from this. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---- actions -----------------------------------------------------------------------------------

export const ORDER_ACTIONS = [
  "ship",
  "deliver",
  "cancel",
  "cod-paid",
  "approve-return",
  "reject-return",
  "refund",
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const isOrderAction = (value: unknown): value is OrderAction =>
  typeof value === "string" && (ORDER_ACTIONS as readonly string[]).includes(value);

export type ReturnStatus = "requested" | "approved" | "rejected" | "refunded";

export type OrderState = {
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: string;
  returnStatus: ReturnStatus | null;
};

/**
 * Why `action` isn't allowed for an order in `state`, or null when it is (DESIGN.md decision 5).
 * The message is what the admin reads with the 409.
 */
export function refusal(action: OrderAction, s: OrderState): string | null {
  const is = `This order is ${s.status}`;
  switch (action) {
    case "ship":
      return canMoveOrder(s.status, "shipped")
        ? null
        : s.status === "pending"
          ? "This order isn't paid yet, so it can't be shipped."
          : `${is}, so it can't be marked as shipped.`;
    case "deliver":
      return canMoveOrder(s.status, "delivered")
        ? null
        : `${is}, so it can't be marked as delivered (only shipped orders can).`;
    case "cancel":
      return canMoveOrder(s.status, "cancelled")
        ? null
        : `${is}, so it can't be cancelled (only pending or processing orders can).`;
    case "cod-paid":
      if (s.paymentMethod !== "cod") return "Only cash-on-delivery orders are marked paid by hand.";
      if (s.status === "cancelled" || s.status === "refunded" || s.status === "returned") {
        return `${is}.`;
      }
      return s.paymentStatus === "unpaid" && canMovePayment(s.paymentStatus, "paid")
        ? null
        : `This order's payment is already ${s.paymentStatus}.`;
    case "approve-return":
    case "reject-return":
      if (!s.returnStatus) return "This order has no return request.";
      return s.returnStatus === "requested" ? null : `This return is already ${s.returnStatus}.`;
    case "refund":
      if (!canMovePayment(s.paymentStatus, "refunded")) {
        return s.paymentStatus === "refunded"
          ? "This order is already refunded."
          : `This order's payment is ${s.paymentStatus}, so there is nothing to refund.`;
      }
      if (s.status === "cancelled" || s.status === "returned") return null;
      if (s.status === "delivered") {
        return s.returnStatus === "approved" && canMoveOrder(s.status, "refunded")
          ? null
          : "A delivered order is refunded only after its return is approved.";
      }
      return `${is}: refunds are recorded for cancelled or returned orders, or approved returns.`;
  }
}

/** The actions an order allows now, in the order the screen shows them. */
export const allowedActions = (s: OrderState): OrderAction[] =>
  ORDER_ACTIONS.filter((a) => refusal(a, s) === null);

/** The audit log's verb for each action. */
export const auditAction: Record<OrderAction, string> = {
  ship: "order.ship",
  deliver: "order.deliver",
  cancel: "order.cancel",
  "cod-paid": "order.cod-paid",
  "approve-return": "order.return-approve",
  "reject-return": "order.return-reject",
  refund: "order.refund",
};

// ---- the ship form -----------------------------------------------------------------------------

export const shipText = {
  carrierRequired: "Please enter the carrier.",
  trackingRequired: "Please enter the tracking number.",
  urlInvalid: "The tracking URL must be a web address starting with http:// or https://.",
} as const;

const httpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
};

export const shipSchema = z.object({
  carrier: z
    .string({ error: shipText.carrierRequired })
    .trim()
    .min(1, shipText.carrierRequired)
    .max(100, "Keep the carrier under 100 characters."),
  trackingNumber: z
    .string({ error: shipText.trackingRequired })
    .trim()
    .min(1, shipText.trackingRequired)
    .max(100, "Keep the tracking number under 100 characters."),
  trackingUrl: z
    .string()
    .trim()
    .max(500, "Keep the tracking URL under 500 characters.")
    .refine((v) => v === "" || httpUrl(v), shipText.urlInvalid)
    .optional()
    .transform((v) => (v ? v : null)),
});
export type ShipInput = z.output<typeof shipSchema>;

// ---- CSV -------------------------------------------------------------------------------------

/** A cell a spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with '. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const ORDER_CSV_COLUMNS = [
  "Order number",
  "Date",
  "Customer",
  "Email",
  "Status",
  "Payment status",
  "Payment method",
  "Subtotal",
  // Issue #23: the code and offer the order was placed with, and what they took off together.
  "Discounts",
  "Discount amount",
  "Shipping",
  // Decision 0018: cash on delivery's fee, part of the total (subtotal − discount + shipping +
  // COD fee + tax = total).
  "COD fee",
  "Tax",
  "Total",
  "Items",
] as const;

/** "Lotus Tealight Holder × 2; Dragon × 1" */
export const itemsSummary = (items: Array<{ name: string; quantity: number }>) =>
  items.map((i) => `${i.name} × ${i.quantity}`).join("; ");
