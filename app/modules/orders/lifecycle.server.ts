import { and, asc, eq, inArray, isNull, lte, not, or, type SQL } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import { orderItems, orders, returnRequests } from "~/db/schema.ts";
import { recordAudit, SYSTEM_ACTOR } from "~/modules/audit/audit.server.ts";
import { removeOrderedLines } from "~/modules/cart/cart.server.ts";
import { releaseDiscountUses } from "~/modules/discounts/discounts.server.ts";
import { releaseOnce, retakeStock } from "~/modules/inventory/inventory.server.ts";
import { type JobPayloads, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import { markQuotesOrdered } from "~/modules/quotes/quotes.server.ts";
import type { OrderProgress } from "~/rules/courier.ts";
import { canMoveOrder, canMovePayment, type OrderStatus, orderNumber } from "~/rules/orders.ts";
import { queueOrderEmail } from "./email-jobs.server.ts";
import type { Tracking } from "./emails.ts";

/*
 * The order lifecycle (decision 0011): the only code that writes an order's status and payment
 * status, and the only writer of the orders table. Checkout creates orders through here, the
 * payments module turns gateway reports into markPaid / markPaymentFailed, the reconciler's
 * expiry and a customer's newer checkout cancel unpaid orders through the same path as staff do,
 * and every change queues its e-mail (and, for staff or the shop itself, writes its history
 * entry) inside its own transaction.
 *
 * Each function that changes one order locks its row first (SELECT … FOR UPDATE), so two reports
 * about one order are decided one after the other.
 */

export type OrderRow = typeof orders.$inferSelect;

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

export async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow> {
  const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!o) throw new OrderNotFoundError();
  return o;
}

/** The order a gateway transaction belongs to, locked (undefined when the shop doesn't know it). */
export async function lockOrderByTransaction(
  tx: Tx,
  transactionId: string,
): Promise<OrderRow | undefined> {
  const [o] = await tx
    .select()
    .from(orders)
    .where(eq(orders.paymentTransactionId, transactionId))
    .for("update");
  return o;
}

function assertMove(from: OrderStatus, to: OrderStatus) {
  if (!canMoveOrder(from, to))
    throw new OrderStateError(`An order that is ${from} can't become ${to}`);
}

const appendNote = (notes: string | null, note: string) => (notes ? `${notes}\n${note}` : note);

const ordersPaidBy = (method: string) => (method === "cod" ? "cash on delivery" : "online payment");

// ---- placing -----------------------------------------------------------------------------------

export type NewOrder = Omit<typeof orders.$inferInsert, "id" | "orderNumber">;
export type NewOrderLine = Omit<typeof orderItems.$inferInsert, "id" | "orderId">;

const MAX_NUMBER_TRIES = 20;

/**
 * Creates a placed order with its lines (checkout has priced them and taken their stock). An order
 * placed without the gateway (cash on delivery) is fulfilled at once: its quotes are ordered, the
 * cart empties and the confirmation e-mail is queued. Orders the customer's newer checkout
 * replaced (supersedeOpenOrders, same transaction) are told which order replaced them.
 */
export async function createOrder(
  tx: Tx,
  values: NewOrder,
  lines: NewOrderLine[],
  options: { now: Date; replaced?: OrderRow[] },
): Promise<OrderRow> {
  const { now } = options;
  const order = await insertWithFreshNumber(tx, values, now);
  await tx.insert(orderItems).values(lines.map((l) => ({ ...l, orderId: order.id })));
  if (order.paymentMethod === "cod") await fulfil(tx, order, now, "all");
  for (const old of options.replaced ?? []) {
    const reason = `Replaced by the customer's newer order ${order.orderNumber} (${ordersPaidBy(order.paymentMethod)}); a payment that still arrives for this order is refunded`;
    await tx
      .update(orders)
      .set({ notes: appendNote(old.notes, reason), updatedAt: now })
      .where(eq(orders.id, old.id));
    await recordAudit(tx, SYSTEM_ACTOR, {
      action: "order.cancel",
      targetType: "order",
      targetId: old.id,
      summary: `Cancelled ${old.orderNumber}, still unpaid: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
      details: {
        orderNumber: old.orderNumber,
        from: old.status,
        to: "cancelled",
        replacedBy: order.orderNumber,
      },
    });
  }
  return order;
}

/** The first time an order goes ahead (paid online, or placed for cash on delivery). */
async function fulfil(tx: Tx, order: OrderRow, now: Date, cartLines: "all" | "ordered") {
  let variantIds: string[] | "all" = "all";
  if (cartLines === "ordered") {
    const items = await tx
      .select({ variantId: orderItems.variantId })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id));
    variantIds = items.flatMap((i) => (i.variantId ? [i.variantId] : []));
  }
  await removeOrderedLines(tx, order.userId, variantIds);
  await markQuotesOrdered(tx, order.id, now);
  await queueOrderEmail(tx, order.id, "confirmation");
}

async function insertWithFreshNumber(tx: Tx, values: NewOrder, now: Date): Promise<OrderRow> {
  for (let i = 0; i < MAX_NUMBER_TRIES; i++) {
    const number = orderNumber(now);
    // A savepoint, so a number taken by a concurrent checkout doesn't abort the whole order.
    try {
      return await tx.transaction(async (sp) => {
        const [row] = await sp
          .insert(orders)
          .values({ ...values, orderNumber: number })
          .returning();
        return row;
      });
    } catch (error) {
      if (!isUniqueViolation(error, "orders_order_number_unique")) throw error;
    }
  }
  throw new Error("Could not find a free order number");
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (pg.code === "23505" && (!pg.constraint || pg.constraint === constraint)) return true;
  }
  return false;
}

// ---- cancelling --------------------------------------------------------------------------------

/**
 * The one way an order is cancelled (the caller holds its row lock and has checked the move):
 * its units and its discount uses go back once, reconciliation stops asking about it, and the
 * reason, if any, is noted.
 */
async function cancelLocked(tx: Tx, o: OrderRow, now: Date, note?: string): Promise<void> {
  const stockReleasedAt = await releaseOnce(tx, o, now);
  await releaseDiscountUses(tx, o.id, now);
  await tx
    .update(orders)
    .set({
      status: "cancelled",
      cancelledAt: now,
      stockReleasedAt,
      nextReconcileAt: null,
      ...(note ? { notes: appendNote(o.notes, note) } : {}),
      updatedAt: now,
    })
    .where(eq(orders.id, o.id));
}

/** Pending orders waiting for an online payment that hasn't succeeded. */
const openOnline = and(
  eq(orders.status, "pending"),
  inArray(orders.paymentStatus, ["unpaid", "failed"]),
  not(eq(orders.paymentMethod, "cod")),
);

/** The customer's online payments still open (the checkout page warns that a new order ends them). */
export async function openOnlinePayments(
  db: Database,
  userId: string,
): Promise<Array<Pick<OrderRow, "id" | "orderNumber" | "totalPaise" | "createdAt">>> {
  return db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      totalPaise: orders.totalPaise,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), openOnline))
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

/**
 * A customer's newer checkout replaces their unpaid online orders: each is cancelled and its units
 * go back on the shelf first, so a corrected cart isn't refused for stock the customer is holding
 * themselves (the caller holds the customer's row lock). createOrder then records which order
 * replaced them. A payment that still completes for one of them is recorded and flagged for a
 * refund (markPaid).
 */
export async function supersedeOpenOrders(tx: Tx, userId: string, now: Date): Promise<OrderRow[]> {
  const open = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), openOnline))
    .orderBy(asc(orders.id))
    .for("update");
  for (const o of open) await cancelLocked(tx, o, now);
  return open;
}

/** Cancels an unpaid order whose payment window closed (the reconciler), putting its stock back. */
export async function expireOrder(db: Database, orderId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (o?.status !== "pending" || o.paymentStatus === "paid") return false;
    await cancelLocked(tx, o, now, "Cancelled: its payment window closed without a payment");
    await recordAudit(tx, SYSTEM_ACTOR, {
      action: "order.cancel",
      targetType: "order",
      targetId: o.id,
      summary: `Cancelled ${o.orderNumber}: its payment window closed without a payment`,
      details: { orderNumber: o.orderNumber, from: o.status, to: "cancelled", expired: true },
    });
    return true;
  });
}

// ---- payments ----------------------------------------------------------------------------------

/** Changes one order when `where` holds (a claim): true when it did. */
async function updateIf(
  db: Database,
  changes: Partial<typeof orders.$inferInsert>,
  where: SQL | undefined,
): Promise<boolean> {
  const [row] = await db.update(orders).set(changes).where(where).returning({ id: orders.id });
  return Boolean(row);
}

/** Records the gateway payment just started for an order (only the first start is kept). */
export function recordPaymentStart(
  db: Database,
  orderId: string,
  started: {
    transactionId: string;
    providerReference: string | null;
    paymentUrl: string;
    expiresAt: Date;
    nextCheckAt: Date;
    now: Date;
  },
): Promise<boolean> {
  return updateIf(
    db,
    {
      paymentTransactionId: started.transactionId,
      paymentReference: started.providerReference,
      paymentUrl: started.paymentUrl,
      paymentExpiresAt: started.expiresAt,
      nextReconcileAt: started.nextCheckAt,
      updatedAt: started.now,
    },
    and(eq(orders.id, orderId), isNull(orders.paymentTransactionId)),
  );
}

/**
 * Claims the right to ask the gateway about an order's payment now: at most once every
 * `throttleMs` per order, whoever asks.
 */
export function claimStatusCheck(
  db: Database,
  orderId: string,
  now: Date,
  throttleMs: number,
): Promise<boolean> {
  const lastAskedBefore = new Date(now.getTime() - throttleMs);
  return updateIf(
    db,
    { paymentCheckedAt: now },
    and(
      eq(orders.id, orderId),
      or(isNull(orders.paymentCheckedAt), lte(orders.paymentCheckedAt, lastAskedBefore)),
    ),
  );
}

/**
 * Claims the open payments due for a check (SKIP LOCKED, so several instances can run the
 * reconciler): each one's next check moves a minute ahead so no one else takes it meanwhile.
 */
export async function claimDuePayments(
  db: Database,
  now: Date,
  batch: number,
): Promise<OrderRow[]> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.status, "pending"),
          inArray(orders.paymentStatus, ["unpaid", "failed"]),
          lte(orders.nextReconcileAt, now),
        ),
      )
      .orderBy(asc(orders.nextReconcileAt))
      .limit(batch)
      .for("update", { skipLocked: true });
    if (rows.length > 0) {
      await tx
        .update(orders)
        .set({ nextReconcileAt: new Date(now.getTime() + 60_000) })
        .where(
          inArray(
            orders.id,
            rows.map((r) => r.id),
          ),
        );
    }
    return rows;
  });
}

/** When the reconciler asks about an order's payment next. */
export async function scheduleNextCheck(db: Database, orderId: string, at: Date): Promise<void> {
  await db.update(orders).set({ nextReconcileAt: at }).where(eq(orders.id, orderId));
}

/**
 * The gateway says the payment failed: the customer can't pay this order any more, so its units go
 * back on the shelf now (once). False when the payment can't move to failed (e.g. already paid).
 */
export async function markPaymentFailed(tx: Tx, o: OrderRow, now: Date): Promise<boolean> {
  if (!canMovePayment(o.paymentStatus, "failed")) return false;
  const stockReleasedAt = await releaseOnce(tx, o, now);
  await tx
    .update(orders)
    .set({ paymentStatus: "failed", stockReleasedAt, updatedAt: now })
    .where(eq(orders.id, o.id));
  return true;
}

export type PaidResult = {
  outcome: "applied" | "paid-after-cancel" | "unchanged";
  /** The order went ahead for the first time: its confirmation e-mail is queued. */
  fulfilled: boolean;
  /** Units a late payment found missing from the shelf (the order stands; staff see a note). */
  short: number;
};

/**
 * The gateway confirms the payment (the amount already checked). Paid never goes back; money for
 * an order already cancelled (expired or replaced) is recorded and flagged for a refund without
 * reviving it; otherwise the order goes ahead: its units are taken again if they had gone back,
 * and the first success fulfils it exactly once (the ordered lines leave the cart, one
 * confirmation e-mail).
 */
export async function markPaid(tx: Tx, o: OrderRow, now: Date): Promise<PaidResult> {
  if (!canMovePayment(o.paymentStatus, "paid")) {
    return { outcome: "unchanged", fulfilled: false, short: 0 };
  }
  if (o.status === "cancelled") {
    await tx
      .update(orders)
      .set({
        paymentStatus: "paid",
        paidAt: now,
        notes: appendNote(o.notes, "Paid after cancellation: refund needed"),
        nextReconcileAt: null,
        updatedAt: now,
      })
      .where(eq(orders.id, o.id));
    return { outcome: "paid-after-cancel", fulfilled: false, short: 0 };
  }
  let notes = o.notes;
  let short = 0;
  if (o.stockReleasedAt) {
    short = await retakeStock(tx, o.id, now);
    if (short > 0) notes = appendNote(notes, `Paid late: ${short} unit(s) short in stock`);
  }
  const first = o.fulfilledAt === null;
  await tx
    .update(orders)
    .set({
      paymentStatus: "paid",
      paidAt: now,
      status: o.status === "pending" ? "processing" : o.status,
      stockReleasedAt: null,
      notes,
      fulfilledAt: o.fulfilledAt ?? now,
      nextReconcileAt: null,
      updatedAt: now,
    })
    .where(eq(orders.id, o.id));
  if (first) await fulfil(tx, o, now, "ordered");
  return { outcome: "applied", fulfilled: first, short };
}

// ---- staff transitions (the admin area calls these) --------------------------------------------

/** A transition's database, and the job runner that sends its e-mail at once (else: soon). */
export type OrderTransitionDeps = { db: Database; jobs?: RunJobsNow };

/**
 * Runs inside a transition's own transaction, after the change (the admin area writes its audit
 * entry here, so the change and its record commit together or not at all).
 */
export type AlsoInTransaction = (tx: Tx) => Promise<void>;

/**
 * One staff transition: lock the order, let `change` check and write it, queue the customer's
 * e-mail (if any), run the caller's part (its audit entry) in the same transaction, then send the
 * e-mail.
 */
async function transition(
  deps: OrderTransitionDeps,
  orderId: string,
  email: JobPayloads["order-email"]["template"] | null,
  also: AlsoInTransaction | undefined,
  change: (tx: Tx, o: OrderRow, now: Date) => Promise<unknown>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    await change(tx, o, new Date());
    if (email) await queueOrderEmail(tx, orderId, email);
    await also?.(tx);
  });
  if (email) await runQueuedNow(deps.jobs);
}

const setOrder = (tx: Tx, o: OrderRow, changes: Partial<typeof orders.$inferInsert>) =>
  tx.update(orders).set(changes).where(eq(orders.id, o.id));

/** Marks a processing order shipped with its tracking details, and e-mails the customer. */
export const markShipped = (
  deps: OrderTransitionDeps,
  orderId: string,
  tracking: Tracking,
  also?: AlsoInTransaction,
) =>
  transition(deps, orderId, "shipped", also, (tx, o, now) => {
    assertMove(o.status, "shipped");
    const { carrier, trackingNumber, trackingUrl } = tracking;
    return setOrder(tx, o, {
      status: "shipped",
      ...{ carrier, trackingNumber, trackingUrl },
      shippedAt: now,
      updatedAt: now,
    });
  });

/** Marks a shipped order delivered (a COD order is paid on delivery), and e-mails the customer. */
export const markDelivered = (
  deps: OrderTransitionDeps,
  orderId: string,
  also?: AlsoInTransaction,
) =>
  transition(deps, orderId, "delivered", also, (tx, o, now) => {
    assertMove(o.status, "delivered");
    const cashNow = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
    const paid = cashNow ? { paymentStatus: "paid" as const, paidAt: now } : {};
    return setOrder(tx, o, { status: "delivered", deliveredAt: now, ...paid, updatedAt: now });
  });

/** Records the cash for an unpaid COD order that is still going ahead (no e-mail). */
export const markCodPaid = (deps: OrderTransitionDeps, orderId: string, also?: AlsoInTransaction) =>
  transition(deps, orderId, null, also, (tx, o, now) => {
    if (o.paymentMethod !== "cod")
      throw new OrderStateError("Only cash-on-delivery orders are paid by hand");
    if (o.paymentStatus !== "unpaid") throw new OrderStateError("This order is already paid");
    if (o.status === "cancelled" || o.status === "refunded") {
      throw new OrderStateError(`An order that is ${o.status} can't be marked paid`);
    }
    return setOrder(tx, o, { paymentStatus: "paid", paidAt: now, updatedAt: now });
  });

/**
 * Staff cancel a pending or processing order: its stock goes back and the customer hears of it
 * (and of the refund, if they paid), as of shipping and delivery.
 */
export const cancelOrder = (deps: OrderTransitionDeps, orderId: string, also?: AlsoInTransaction) =>
  transition(deps, orderId, "cancelled", also, (tx, o, now) => {
    assertMove(o.status, "cancelled");
    return cancelLocked(tx, o, now);
  });

// ---- the courier's events (decision 0016) -----------------------------------------------------

export type CarrierProgress = {
  progress: OrderProgress;
  /** The shipment's courier and AWB: the order's tracking details when the event ships it. */
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
};

export type CarrierOutcome = {
  /** The states the order moved through, in order (empty: nothing changed). */
  moved: Array<OrderStatus | "out_for_delivery">;
  /** An e-mail was queued: run the job runner after the commit. */
  emailed: boolean;
};

/** Statuses a courier's event never changes: delivered never goes back, the rest are final. */
const CARRIER_FINAL: readonly OrderStatus[] = ["delivered", "cancelled", "refunded", "returned"];

/**
 * A courier's tracking update, inside the shipping module's transaction (which recorded the event
 * once). The order only moves forward: a processing order is shipped on the first update that says
 * the parcel is moving (tracking details and the shipped e-mail), out for delivery is noted once
 * (its e-mail once), delivered delivers it (a COD order's cash counts as paid), whatever came
 * before or comes after. Returned to origin (RTO) returns a processing or shipped order: its
 * units go back on the shelf once, and a COD order is flagged for the cash never collected. A
 * pending order (unpaid) or one in a final state is left as it is.
 */
export async function applyCarrierProgress(
  tx: Tx,
  orderId: string,
  update: CarrierProgress,
  now: Date,
): Promise<CarrierOutcome> {
  const o = await lockOrder(tx, orderId);
  const outcome: CarrierOutcome = { moved: [], emailed: false };
  if (o.status === "pending" || CARRIER_FINAL.includes(o.status)) return outcome;

  if (update.progress === "returned") {
    assertMove(o.status, "returned");
    const stockReleasedAt = await releaseOnce(tx, o, now);
    const codUncollected = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
    const note = codUncollected
      ? "Returned to origin by the courier (RTO): the cash on delivery was never collected"
      : o.paymentStatus === "paid"
        ? "Returned to origin by the courier (RTO): the customer paid, so a refund is due"
        : "Returned to origin by the courier (RTO)";
    await setOrder(tx, o, {
      status: "returned",
      returnedAt: now,
      stockReleasedAt,
      notes: appendNote(o.notes, note),
      updatedAt: now,
    });
    await recordAudit(tx, SYSTEM_ACTOR, {
      action: "order.returned-to-origin",
      targetType: "order",
      targetId: o.id,
      summary: `${o.orderNumber} came back undelivered (RTO); its stock went back on the shelf`,
      details: {
        orderNumber: o.orderNumber,
        from: o.status,
        to: "returned",
        carrier: update.carrier,
        awb: update.trackingNumber,
        codUncollected,
      },
    });
    outcome.moved.push("returned");
    return outcome;
  }

  let status = o.status;
  if (status === "processing") {
    assertMove(status, "shipped");
    await setOrder(tx, o, {
      status: "shipped",
      carrier: update.carrier,
      trackingNumber: update.trackingNumber,
      trackingUrl: update.trackingUrl,
      shippedAt: now,
      updatedAt: now,
    });
    await queueOrderEmail(tx, o.id, "shipped");
    outcome.moved.push("shipped");
    outcome.emailed = true;
    status = "shipped";
  }
  if (update.progress === "out_for_delivery" && o.outForDeliveryAt === null) {
    await setOrder(tx, o, { outForDeliveryAt: now, updatedAt: now });
    await queueOrderEmail(tx, o.id, "out-for-delivery");
    outcome.moved.push("out_for_delivery");
    outcome.emailed = true;
  }
  if (update.progress === "delivered") {
    assertMove(status, "delivered");
    const cashNow = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
    const paid = cashNow ? { paymentStatus: "paid" as const, paidAt: now } : {};
    await setOrder(tx, o, { status: "delivered", deliveredAt: now, ...paid, updatedAt: now });
    await queueOrderEmail(tx, o.id, "delivered");
    outcome.moved.push("delivered");
    outcome.emailed = true;
  }
  return outcome;
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
    await setOrder(tx, o, { status: "refunded", paymentStatus: "refunded", updatedAt: now });
    return o;
  }
  if (o.status !== "cancelled" && o.status !== "returned") {
    throw new OrderStateError(
      `This order is ${o.status}: refunds are recorded for cancelled or returned orders, or approved returns.`,
    );
  }
  // A "refund needed" note above now has its answer.
  await setOrder(tx, o, {
    paymentStatus: "refunded",
    notes: appendNote(o.notes, "Refund recorded"),
    updatedAt: now,
  });
  return o;
}
