import { and, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/types.ts";
import {
  type AddressSnapshot,
  invoiceSequences,
  orderItems,
  orders,
  products,
  type ReturnItem,
  returnRequests,
  reviews,
  user,
} from "~/db/schema.ts";
import { releaseStock } from "~/modules/checkout/checkout.server.ts";
import { type JobPayloads, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { financialYear, formatInvoiceNumber } from "~/rules/gst.ts";
import {
  canMoveOrder,
  canMovePayment,
  type OrderStatus,
  type PaymentStatus,
} from "~/rules/orders.ts";
import { queueOrderEmail } from "./email-jobs.server.ts";
import {
  type OrderEmailData,
  orderCancelledEmail,
  orderConfirmationEmail,
  orderDeliveredEmail,
  orderShippedEmail,
  type Tracking,
} from "./emails.ts";
import type { InvoiceDocument } from "./invoice-pdf.server.ts";

/*
 * A customer's orders (SPEC.md §2 My Orders, §7 "Orders filtered by userId ordered by createdAt
 * descending; per order, the user's reviews keyed by productId"), the staff transitions of
 * DESIGN.md decision 5 with their e-mails, return requests and GST invoices. Customer functions
 * take the session's user id and treat another customer's order exactly like a missing one.
 */

/** A transaction handle (the staff functions that take one run inside the caller's transaction). */

export class OrderNotFoundError extends Error {
  override name = "OrderNotFoundError";
  constructor() {
    super("Order not found");
  }
}

/** A change the order's state doesn't allow (e.g. shipping a cancelled order). */
export class OrderStateError extends Error {
  override name = "OrderStateError";
}

export type OrderItemView = {
  id: string;
  productId: string | null;
  name: string;
  imageUrl: string | null;
  quantity: number;
  unitPricePaise: number;
  currency: string;
  myReview: { id: string; rating: number; title: string | null; review: string | null } | null;
  /** A custom part printed from the customer's own model (no catalogue page, no reviews). */
  custom: boolean;
};

export type OrderView = {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  createdAt: string;
  subtotalPaise: number;
  discountPaise: number;
  shippingPaise: number;
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

function view(
  o: OrderRow,
  items: Array<typeof orderItems.$inferSelect & { custom: boolean }>,
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
    shippingPaise: o.shippingPaise ?? 0,
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
      imageUrl: i.imageUrl,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
      currency: i.currency || "INR",
      myReview: i.productId ? (myReviews.get(i.productId) ?? null) : null,
      custom: i.custom,
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
      })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
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
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const o = row.order;
  const data: OrderEmailData = {
    customerName: row.name,
    orderNumber: o.orderNumber,
    ordersUrl: `${publicUrl}/orders`,
    items: items.map((i) => ({
      name: i.name,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
    })),
    subtotalPaise: o.subtotalPaise,
    shippingPaise: o.shippingPaise,
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
        : job.template === "delivered"
          ? orderDeliveredEmail(data)
          : orderCancelledEmail(data);
  await deps.mailer.send({ to, ...rendered });
}

// ---- staff transitions (the admin area calls these) --------------------------------------------

async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow> {
  const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!o) throw new OrderNotFoundError();
  return o;
}

function assertMove(from: OrderStatus, to: OrderStatus) {
  if (!canMoveOrder(from, to))
    throw new OrderStateError(`An order that is ${from} can't become ${to}`);
}

/** A transition's database, and the job runner that sends its e-mail at once (else: soon). */
export type OrderTransitionDeps = { db: Database; jobs?: RunJobsNow };

/**
 * Runs inside a transition's own transaction, after the change (the admin area writes its audit
 * entry here, so the change and its record commit together or not at all).
 */
export type AlsoInTransaction = (tx: Tx) => Promise<void>;

/** Marks a processing order shipped with its tracking details, and e-mails the customer. */
export async function markShipped(
  deps: OrderTransitionDeps,
  orderId: string,
  tracking: Tracking,
  also?: AlsoInTransaction,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    assertMove(o.status, "shipped");
    await tx
      .update(orders)
      .set({
        status: "shipped",
        carrier: tracking.carrier,
        trackingNumber: tracking.trackingNumber,
        trackingUrl: tracking.trackingUrl,
        shippedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(orders.id, orderId));
    await queueOrderEmail(tx, orderId, "shipped");
    await also?.(tx);
  });
  await runQueuedNow(deps.jobs);
}

/** Marks a shipped order delivered (a COD order is paid on delivery), and e-mails the customer. */
export async function markDelivered(
  deps: OrderTransitionDeps,
  orderId: string,
  also?: AlsoInTransaction,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    assertMove(o.status, "delivered");
    const now = new Date();
    const codPaid = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
    await tx
      .update(orders)
      .set({
        status: "delivered",
        deliveredAt: now,
        ...(codPaid ? { paymentStatus: "paid" as const, paidAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(orders.id, orderId));
    await queueOrderEmail(tx, orderId, "delivered");
    await also?.(tx);
  });
  await runQueuedNow(deps.jobs);
}

/** Records the cash for an unpaid COD order that is still going ahead. */
export async function markCodPaid(
  db: Database,
  orderId: string,
  also?: AlsoInTransaction,
): Promise<void> {
  await db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (o.paymentMethod !== "cod")
      throw new OrderStateError("Only cash-on-delivery orders are paid by hand");
    if (o.paymentStatus !== "unpaid") throw new OrderStateError("This order is already paid");
    if (o.status === "cancelled" || o.status === "refunded") {
      throw new OrderStateError(`An order that is ${o.status} can't be marked paid`);
    }
    await tx
      .update(orders)
      .set({ paymentStatus: "paid", paidAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, orderId));
    await also?.(tx);
  });
}

/** Cancels a pending or processing order and puts its stock back. */
export async function cancelOrder(
  deps: OrderTransitionDeps,
  orderId: string,
  also?: AlsoInTransaction,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    assertMove(o.status, "cancelled");
    if (!o.stockReleasedAt) await releaseStock(tx, o.id);
    const now = new Date();
    await tx
      .update(orders)
      .set({
        status: "cancelled",
        cancelledAt: now,
        stockReleasedAt: o.stockReleasedAt ?? now,
        nextReconcileAt: null,
        updatedAt: now,
      })
      .where(eq(orders.id, orderId));
    // The customer hears of it (and of the refund, if they paid), as of shipping and delivery.
    await queueOrderEmail(tx, orderId, "cancelled");
    await also?.(tx);
  });
  await runQueuedNow(deps.jobs);
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

/** Where a return request stands after staff looked at it. */
export type ReturnDecision = "approved" | "rejected";

/**
 * Staff approve or reject a customer's return request that awaits a decision. Runs inside the
 * caller's transaction (so the admin area records its audit entry with it); locks the order.
 * Returns the order as it was.
 */
export async function decideReturn(
  tx: Tx,
  orderId: string,
  decision: ReturnDecision,
): Promise<OrderRow> {
  const o = await lockOrder(tx, orderId);
  const [ret] = await tx
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.orderId, orderId))
    .for("update");
  if (!ret) throw new OrderStateError("This order has no return request.");
  if (ret.status !== "requested")
    throw new OrderStateError(`This return is already ${ret.status}.`);
  await tx
    .update(returnRequests)
    .set({ status: decision, updatedAt: new Date() })
    .where(eq(returnRequests.id, ret.id));
  return o;
}

/**
 * Records that the money went back (DESIGN.md decision 5): a paid order that was cancelled has
 * its payment marked refunded; a delivered order with an approved return also becomes refunded,
 * and so does its return. Runs inside the caller's transaction; locks the order. Returns the
 * order as it was.
 */
export async function recordRefund(tx: Tx, orderId: string): Promise<OrderRow> {
  const o = await lockOrder(tx, orderId);
  if (!canMovePayment(o.paymentStatus, "refunded")) {
    throw new OrderStateError(
      o.paymentStatus === "refunded"
        ? "This order is already refunded."
        : `This order's payment is ${o.paymentStatus}, so there is nothing to refund.`,
    );
  }
  const now = new Date();
  if (o.status === "delivered") {
    const [ret] = await tx
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.orderId, orderId))
      .for("update");
    if (ret?.status !== "approved")
      throw new OrderStateError("A delivered order is refunded only after its return is approved.");
    assertMove(o.status, "refunded");
    await tx
      .update(returnRequests)
      .set({ status: "refunded", updatedAt: now })
      .where(eq(returnRequests.id, ret.id));
    await tx
      .update(orders)
      .set({ status: "refunded", paymentStatus: "refunded", updatedAt: now })
      .where(eq(orders.id, orderId));
    return o;
  }
  if (o.status !== "cancelled") {
    throw new OrderStateError(
      `This order is ${o.status}: refunds are recorded for cancelled orders or approved returns.`,
    );
  }
  await tx
    .update(orders)
    .set({ paymentStatus: "refunded", updatedAt: now })
    .where(eq(orders.id, orderId));
  return o;
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
      name: i.name,
      hsnCode: i.hsnCode,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
    })),
    subtotalPaise: order.subtotalPaise,
    shippingPaise: order.shippingPaise,
    taxPaise: order.taxPaise,
    discountPaise: order.discountPaise,
    totalPaise: order.totalPaise,
    // The rate the order was taxed at, not today's setting.
    taxRateBasisPoints: order.taxRateBasisPoints,
  };
}
