import { and, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/types.ts";
import {
  invoiceSequences,
  orderItems,
  orders,
  products,
  quotes,
  type ReturnItem,
  returnRequests,
  reviews,
  user,
} from "~/db/schema.ts";
import type { JobPayloads } from "~/modules/jobs/jobs.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { financialYear, formatInvoiceNumber } from "~/rules/gst.ts";
import { type OrderDiscountRow, orderDiscountRows } from "~/rules/order-discounts.ts";
import type { OrderStatus, PaymentStatus } from "~/rules/orders.ts";
import type { AddressSnapshot } from "~/rules/stored-shapes.ts";
import { lineName, optionLabel } from "~/rules/variants.ts";
import {
  type OrderEmailData,
  orderCancelledEmail,
  orderConfirmationEmail,
  orderDeliveredEmail,
  orderOutForDeliveryEmail,
  orderShippedEmail,
  type Tracking,
} from "./emails.ts";
import type { InvoiceDocument } from "./invoice-pdf.server.ts";
import { OrderNotFoundError } from "./lifecycle.server.ts";

/*
 * A customer's orders (SPEC.md §2 My Orders, §7 "Orders filtered by userId ordered by createdAt
 * descending; per order, the user's reviews keyed by productId"), the staff transitions of
 * DESIGN.md decision 5 with their e-mails, return requests and GST invoices. Customer functions
 * take the session's user id and treat another customer's order exactly like a missing one.
 */

export type OrderItemView = {
  id: string;
  productId: string | null;
  name: string;
  /** The option values as ordered ("Colour: Red · Size: 7 cm"); empty without options. */
  options: string;
  /** The variant ordered, for a product with options (its page opens on it); else null. */
  variantId: string | null;
  imageUrl: string | null;
  quantity: number;
  unitPricePaise: number;
  /** The line's share of the order's item discounts. */
  discountPaise: number;
  currency: string;
  myReview: { id: string; rating: number; title: string | null; review: string | null } | null;
  /** A custom part printed from the customer's own model (no catalogue page, no reviews). */
  custom: boolean;
  /** A custom part's ready-by day (India), promised when it was paid. */
  readyBy: string | null;
};

export type OrderView = {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  createdAt: string;
  subtotalPaise: number;
  discountPaise: number;
  /** The codes and offers, each with what it took off the items or the shipping. */
  discounts: OrderDiscountRow[];
  shippingPaise: number;
  /** The cash-on-delivery fee (0 when paid online). */
  codFeePaise: number;
  taxPaise: number;
  totalPaise: number;
  currency: string;
  shippingAddress: AddressSnapshot;
  shippingMethod: { id: string; label: string; costPaise: number };
  paymentMethod: string;
  paymentProvider: string;
  paymentStatus: PaymentStatus;
  paidAt: string | null;
  tracking: Tracking | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  returnRequest: { status: string; reason: string; createdAt: string } | null;
  canDownloadInvoice: boolean;
  items: OrderItemView[];
};

type OrderRow = typeof orders.$inferSelect;

/** Invoices exist for paid orders and for cash-on-delivery orders that aren't cancelled. */
export const invoiceAvailable = (o: Pick<OrderRow, "paymentStatus" | "paymentMethod" | "status">) =>
  o.paymentStatus === "paid" ||
  o.paymentStatus === "refunded" ||
  (o.paymentMethod === "cod" && o.status !== "cancelled");

/** An order's discount rows from its stored figures (its lines' shares and the applied list). */
export function discountRowsOf(
  o: Pick<OrderRow, "appliedDiscounts" | "discountPaise">,
  items: ReadonlyArray<{ discountPaise: number }>,
): OrderDiscountRow[] {
  return orderDiscountRows({
    appliedDiscounts: o.appliedDiscounts,
    discountPaise: o.discountPaise ?? 0,
    lineDiscountPaise: items.reduce((s, i) => s + i.discountPaise, 0),
  });
}

function view(
  o: OrderRow,
  items: Array<typeof orderItems.$inferSelect & { custom: boolean; readyBy: string | null }>,
  myReviews: Map<string, OrderItemView["myReview"]>,
  ret: typeof returnRequests.$inferSelect | undefined,
): OrderView {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    createdAt: o.createdAt.toISOString(),
    subtotalPaise: o.subtotalPaise ?? 0,
    discountPaise: o.discountPaise ?? 0,
    discounts: discountRowsOf(o, items),
    shippingPaise: o.shippingPaise ?? 0,
    codFeePaise: o.codFeePaise ?? 0,
    taxPaise: o.taxPaise ?? 0,
    totalPaise: o.totalPaise ?? 0,
    currency: o.currency || "INR",
    shippingAddress: o.shippingAddress,
    shippingMethod: o.shippingMethod,
    paymentMethod: o.paymentMethod,
    paymentProvider: o.paymentProvider,
    paymentStatus: o.paymentStatus,
    paidAt: o.paidAt?.toISOString() ?? null,
    tracking:
      o.status === "shipped" || o.status === "delivered"
        ? o.carrier && o.trackingNumber
          ? { carrier: o.carrier, trackingNumber: o.trackingNumber, trackingUrl: o.trackingUrl }
          : null
        : null,
    shippedAt: o.shippedAt?.toISOString() ?? null,
    deliveredAt: o.deliveredAt?.toISOString() ?? null,
    returnRequest: ret
      ? { status: ret.status, reason: ret.reason, createdAt: ret.createdAt.toISOString() }
      : null,
    canDownloadInvoice: invoiceAvailable(o),
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      name: i.name,
      /** "Colour: Red · Size: 7 cm" as ordered; empty for a product without options. */
      options: optionLabel(i.options),
      variantId: i.options?.length ? i.variantId : null,
      imageUrl: i.imageUrl,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
      discountPaise: i.discountPaise,
      currency: i.currency || "INR",
      myReview: i.productId ? (myReviews.get(i.productId) ?? null) : null,
      custom: i.custom,
      readyBy: i.readyBy,
    })),
  };
}

async function assemble(db: Database, userId: string, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((o) => o.id);
  const [items, rets] = await Promise.all([
    db
      .select({
        ...getTableColumns(orderItems),
        custom: sql<boolean>`(${products.quoteId} is not null)`,
        readyBy: quotes.readyBy,
      })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(quotes, eq(quotes.id, products.quoteId))
      .where(inArray(orderItems.orderId, ids)),
    db.select().from(returnRequests).where(inArray(returnRequests.orderId, ids)),
  ]);
  const productIds = [...new Set(items.flatMap((i) => (i.productId ? [i.productId] : [])))];
  const mine =
    productIds.length === 0
      ? []
      : await db
          .select({
            id: reviews.id,
            productId: reviews.productId,
            rating: reviews.rating,
            title: reviews.title,
            review: reviews.review,
          })
          .from(reviews)
          .where(and(eq(reviews.userId, userId), inArray(reviews.productId, productIds)));
  const myReviews = new Map(
    mine.map((r) => [
      r.productId,
      { id: r.id, rating: r.rating, title: r.title, review: r.review },
    ]),
  );
  const itemsBy = Map.groupBy(items, (i) => i.orderId);
  const retBy = new Map(rets.map((r) => [r.orderId, r]));
  return rows.map((o) => view(o, itemsBy.get(o.id) ?? [], myReviews, retBy.get(o.id)));
}

/** The user's orders, newest first, with items and the user's own reviews of them. */
export async function listOrders(db: Database, userId: string, limit = 50): Promise<OrderView[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return assemble(db, userId, rows);
}

export async function getOrder(db: Database, userId: string, orderId: string): Promise<OrderView> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw new OrderNotFoundError();
  const [one] = await assemble(db, userId, [row]);
  return one;
}

// ---- e-mails ---------------------------------------------------------------------------------

export type OrderMailDeps = { db: Database; mailer: Mailer; publicUrl: string };
export type OrderEmailJob = JobPayloads["order-email"];

async function emailData(db: Database, publicUrl: string, orderId: string) {
  const [row] = await db
    .select({ order: orders, email: user.email, name: user.name })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new OrderNotFoundError();
  const items = await db
    .select({ ...getTableColumns(orderItems), readyBy: quotes.readyBy })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(quotes, eq(quotes.id, products.quoteId))
    .where(eq(orderItems.orderId, orderId));
  const o = row.order;
  const data: OrderEmailData = {
    customerName: row.name,
    orderNumber: o.orderNumber,
    ordersUrl: `${publicUrl}/orders`,
    items: items.map((i) => ({
      name: lineName(i.name, i.options),
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
      readyBy: i.readyBy,
    })),
    subtotalPaise: o.subtotalPaise,
    discounts: discountRowsOf(o, items).map((d) => ({
      label: d.label,
      on: d.on,
      amountPaise: d.amountPaise,
    })),
    shippingPaise: o.shippingPaise,
    codFeePaise: o.codFeePaise,
    taxPaise: o.taxPaise,
    totalPaise: o.totalPaise,
    paymentMethod: o.paymentMethod,
    paymentProvider: o.paymentProvider,
    // Refunded by the time a retried e-mail goes out still means money was taken.
    paid: o.paymentStatus === "paid" || o.paymentStatus === "refunded",
    address: o.shippingAddress,
  };
  return { to: row.email, data, order: o };
}

/** The "order-email" job: renders the e-mail from the order as it is now and sends it. */
export async function sendOrderEmail(deps: OrderMailDeps, job: OrderEmailJob): Promise<void> {
  const { to, data, order } = await emailData(deps.db, deps.publicUrl, job.orderId);
  const rendered =
    job.template === "confirmation"
      ? orderConfirmationEmail(data)
      : job.template === "shipped"
        ? orderShippedEmail(data, {
            carrier: order.carrier ?? "",
            trackingNumber: order.trackingNumber ?? "",
            trackingUrl: order.trackingUrl ?? null,
          })
        : job.template === "out-for-delivery"
          ? orderOutForDeliveryEmail(data, {
              carrier: order.carrier ?? "",
              trackingNumber: order.trackingNumber ?? "",
              trackingUrl: order.trackingUrl ?? null,
            })
          : job.template === "delivered"
            ? orderDeliveredEmail(data)
            : orderCancelledEmail(data);
  await deps.mailer.send({ to, ...rendered });
}

// ---- returns ---------------------------------------------------------------------------------

export class ReturnRequestError extends Error {
  override name = "ReturnRequestError";
}

/** A customer asks to return items of a delivered order (one request per order). */
export async function requestReturn(
  db: Database,
  userId: string,
  orderId: string,
  input: { items: Array<{ orderItemId: string; quantity: number }>; reason: string },
): Promise<void> {
  const reason = input.reason.trim();
  if (!reason) throw new ReturnRequestError("Please tell us why you're returning the items.");
  if (reason.length > 1000)
    throw new ReturnRequestError("Please keep the reason under 1000 characters.");
  await db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .for("update");
    if (!o) throw new OrderNotFoundError();
    if (o.status !== "delivered")
      throw new ReturnRequestError("Only delivered orders can be returned.");
    const [existing] = await tx
      .select({ id: returnRequests.id })
      .from(returnRequests)
      .where(eq(returnRequests.orderId, orderId));
    if (existing) throw new ReturnRequestError("A return is already requested for this order.");
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const byId = new Map(items.map((i) => [i.id, i]));
    const chosen: ReturnItem[] = [];
    for (const want of input.items) {
      const item = byId.get(want.orderItemId);
      if (!item) throw new ReturnRequestError("Please choose items from this order.");
      if (!Number.isInteger(want.quantity) || want.quantity < 1 || want.quantity > item.quantity) {
        throw new ReturnRequestError(`Choose between 1 and ${item.quantity} of “${item.name}”.`);
      }
      chosen.push({
        orderItemId: item.id,
        productId: item.productId,
        name: item.name,
        quantity: want.quantity,
      });
    }
    if (chosen.length === 0)
      throw new ReturnRequestError("Please choose at least one item to return.");
    await tx.insert(returnRequests).values({ orderId, userId, items: chosen, reason });
  });
}

// ---- invoices --------------------------------------------------------------------------------

export class InvoiceUnavailableError extends Error {
  override name = "InvoiceUnavailableError";
  constructor() {
    super("The invoice is available once the order is paid.");
  }
}

/**
 * The GST invoice for one of the user's orders. Its number is given on the first download and
 * kept: numbers run without gaps within each financial year (the sequence row is locked).
 */
export async function invoiceFor(
  db: Database,
  userId: string,
  orderId: string,
): Promise<InvoiceDocument> {
  const { order, items } = await db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .for("update");
    if (!o) throw new OrderNotFoundError();
    if (!invoiceAvailable(o)) throw new InvoiceUnavailableError();
    let issued = o;
    if (!o.invoiceNumber) {
      const now = new Date();
      const fy = financialYear(now);
      const [seq] = await tx
        .insert(invoiceSequences)
        .values({ financialYear: fy, lastNumber: 1 })
        .onConflictDoUpdate({
          target: invoiceSequences.financialYear,
          set: { lastNumber: sql`${invoiceSequences.lastNumber} + 1` },
        })
        .returning({ n: invoiceSequences.lastNumber });
      const [updated] = await tx
        .update(orders)
        .set({ invoiceNumber: formatInvoiceNumber(fy, seq.n), invoiceIssuedAt: now })
        .where(eq(orders.id, o.id))
        .returning();
      issued = updated;
    }
    const its = await tx.select().from(orderItems).where(eq(orderItems.orderId, o.id));
    return { order: issued, items: its };
  });
  const settings = await getShopSettings(db);
  const party = (a: AddressSnapshot) => ({
    name: a.name,
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode,
    country: a.country,
    phone: a.phone,
  });
  return {
    invoiceNumber: order.invoiceNumber!,
    invoiceDate: order.invoiceIssuedAt ?? new Date(),
    orderNumber: order.orderNumber,
    orderDate: order.createdAt,
    paymentMethod: order.paymentMethod === "cod" ? "Cash on Delivery" : "Online (UPI / cards)",
    paymentStatus:
      order.paymentStatus === "paid"
        ? "Paid"
        : order.paymentStatus === "refunded"
          ? "Refunded"
          : "To be paid on delivery",
    shop: {
      name: settings.shopName,
      address: settings.shopAddress,
      phone: settings.shopPhone,
      email: settings.shopEmail,
      gstin: settings.gstin,
      state: settings.shopState,
    },
    billTo: party(order.billingAddress),
    shipTo: party(order.shippingAddress),
    lines: items.map((i) => ({
      name: lineName(i.name, i.options),
      hsnCode: i.hsnCode,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
      discountPaise: i.discountPaise,
    })),
    subtotalPaise: order.subtotalPaise,
    shippingPaise: order.shippingPaise,
    codFeePaise: order.codFeePaise,
    taxPaise: order.taxPaise,
    discountPaise: order.discountPaise,
    appliedDiscounts: order.appliedDiscounts,
    totalPaise: order.totalPaise,
    // The rate the order was taxed at, not today's setting.
    taxRateBasisPoints: order.taxRateBasisPoints,
  };
}
