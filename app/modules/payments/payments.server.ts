import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { PaymentProvider, PaymentState } from "~/adapters/payments/types.ts";
import { orderItems, orders, paymentEvents, user } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { holdLease, type Loop, releaseLease, startLoop } from "~/modules/jobs/jobs.server.ts";
import {
  claimDuePayments,
  claimStatusCheck,
  expireOrder,
  lockOrderByTransaction,
  markPaid,
  markPaymentFailed,
  OrderNotFoundError,
  type OrderRow,
  recordPaymentStart,
  scheduleNextCheck,
} from "~/modules/orders/lifecycle.server.ts";
import {
  nextReconcileDelay,
  ORDER_HOLD_SECONDS,
  PAYMENT_WINDOW_SECONDS,
  type PaymentStatus,
  PENDING_GIVE_UP_SECONDS,
} from "~/rules/orders.ts";

/*
 * Payments for orders (SPEC.md §4 "Payment result page", §7 initiatePaymentGateway /
 * checkPaymentGatewayStatus; DESIGN.md decision 5; payments.md "What trusted platforms do").
 *
 * Every report about a payment — a webhook, the return page's status check, the reconciliation
 * job — goes through applyPaymentUpdate, which decides under the order's row lock: paid never
 * goes back, FAILED then SUCCESS ends paid, the amount must match, and the first success fulfils
 * the order exactly once (payment paid, order processing, the ordered lines leave the cart, one
 * confirmation e-mail).
 */

export type PaymentDeps = {
  db: Database;
  provider: PaymentProvider;
  publicUrl: string;
  /**
   * Called after commit for an order that has just been fulfilled; its confirmation e-mail was
   * queued in the same transaction, and the shop sends it now from here.
   */
  onFulfilled?: (orderId: string) => Promise<void>;
  now?: () => Date;
};

/** The dependencies as the running shop wires them: fulfilment sends the queued e-mail at once. */
export function paymentDepsFor(rt: {
  db: Database;
  payments: PaymentProvider;
  env: { publicUrl: string };
  jobRunner: { sendNow(): Promise<unknown> };
}): PaymentDeps {
  return {
    db: rt.db,
    provider: rt.payments,
    publicUrl: rt.env.publicUrl,
    onFulfilled: async () => {
      await rt.jobRunner.sendNow();
    },
  };
}

const clock = (deps: PaymentDeps) => (deps.now ? deps.now() : new Date());

export type InitiatedOrderPayment = {
  orderId: string;
  transactionId: string;
  paymentUrl: string;
};

/**
 * Starts the gateway payment for one of the user's pending orders (or returns the one already
 * started: a resubmitted checkout goes to the same payment page).
 */
export async function initiateOrderPayment(
  deps: PaymentDeps,
  userId: string,
  orderId: string,
): Promise<InitiatedOrderPayment> {
  const { db, provider, publicUrl } = deps;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new OrderNotFoundError();
  if (order.paymentTransactionId && order.paymentUrl) {
    return { orderId, transactionId: order.paymentTransactionId, paymentUrl: order.paymentUrl };
  }
  const [customer] = await db
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  const transactionId = `${order.orderNumber}-${randomBytes(4).toString("hex")}`;
  const query = new URLSearchParams({ orderId, transactionId });
  const initiated = await provider.initiate({
    transactionId,
    orderId,
    orderNumber: order.orderNumber,
    amountPaise: order.totalPaise,
    customer: {
      name: customer?.name ?? order.shippingAddress.name,
      email: customer?.email ?? "",
      phone: order.shippingAddress.phone || null,
    },
    redirectUrl: `${publicUrl}/payment-success?${query}`,
    callbackUrl: `${publicUrl}/api/payment-webhook`,
    expireAfterSeconds: PAYMENT_WINDOW_SECONDS,
  });
  // Only the first attempt to start a payment for the order records it. The order's hold and the
  // reconciliation schedule run from now, when the gateway's own window starts.
  const started = clock(deps);
  const saved = await recordPaymentStart(db, orderId, {
    transactionId,
    providerReference: initiated.providerReference,
    paymentUrl: initiated.paymentUrl,
    expiresAt: new Date(started.getTime() + ORDER_HOLD_SECONDS * 1000),
    nextCheckAt: new Date(started.getTime() + (nextReconcileDelay(0) ?? 25) * 1000),
    now: started,
  });
  if (!saved) {
    const [current] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (current?.paymentTransactionId && current.paymentUrl) {
      return {
        orderId,
        transactionId: current.paymentTransactionId,
        paymentUrl: current.paymentUrl,
      };
    }
  }
  return { orderId, transactionId, paymentUrl: initiated.paymentUrl };
}

export type PaymentUpdate = {
  transactionId: string;
  state: PaymentState;
  amountPaise: number | null;
  /** Set for notifications: the same event id is applied once. */
  eventId?: string;
  source: "webhook" | "status" | "reconcile";
};

export type UpdateOutcome =
  | "applied"
  /** Money arrived for an order that was already cancelled: recorded, flagged for a refund. */
  | "paid-after-cancel"
  | "unchanged"
  | "duplicate"
  | "amount-mismatch"
  | "unknown-order";

export type UpdateResult = {
  outcome: UpdateOutcome;
  orderId: string | null;
  paymentStatus: PaymentStatus | null;
  fulfilled: boolean;
};

async function confirmedAmount(
  deps: PaymentDeps,
  transactionId: string,
): Promise<Pick<PaymentUpdate, "state" | "amountPaise">> {
  const [order] = await deps.db
    .select({ reference: orders.paymentReference })
    .from(orders)
    .where(eq(orders.paymentTransactionId, transactionId));
  if (!order) return { state: "SUCCESS", amountPaise: null };
  const status = await deps.provider.status({ transactionId, providerReference: order.reference });
  // Only a confirmed success with an amount counts; anything else waits for the next report.
  return status.state === "SUCCESS" && status.amountPaise !== null
    ? { state: "SUCCESS", amountPaise: status.amountPaise }
    : { state: "PENDING", amountPaise: null };
}

export async function applyPaymentUpdate(
  deps: PaymentDeps,
  initial: PaymentUpdate,
): Promise<UpdateResult> {
  let update = initial;
  const now = clock(deps);
  if (update.state === "SUCCESS" && update.amountPaise === null) {
    // payments.md: compare the amount. A success that doesn't say how much is confirmed with the
    // gateway's status first.
    update = { ...update, ...(await confirmedAmount(deps, update.transactionId)) };
  }
  const result = await deps.db.transaction(async (tx) => {
    const order = await lockOrderByTransaction(tx, update.transactionId);
    if (update.eventId) {
      const [recorded] = await tx
        .insert(paymentEvents)
        .values({
          provider: deps.provider.name,
          eventId: update.eventId,
          orderId: order?.id ?? null,
          transactionId: update.transactionId,
          state: update.state,
          amountPaise: update.amountPaise,
          outcome: "received",
        })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (!recorded) {
        return {
          outcome: "duplicate" as const,
          orderId: order?.id ?? null,
          paymentStatus: order?.paymentStatus ?? null,
          fulfilled: false,
        };
      }
      const decided = await decide(tx, order, update, now);
      await tx
        .update(paymentEvents)
        .set({ outcome: decided.outcome })
        .where(eq(paymentEvents.id, recorded.id));
      return decided;
    }
    return decide(tx, order, update, now);
  });
  if (result.outcome === "amount-mismatch") {
    log.error("payment amount does not match the order", {
      transactionId: update.transactionId,
      reported: update.amountPaise,
      source: update.source,
    });
  }
  if (result.fulfilled && result.orderId && deps.onFulfilled) {
    try {
      await deps.onFulfilled(result.orderId);
    } catch (error) {
      log.warning("sending the order confirmation now failed; the job runner retries it", {
        orderId: result.orderId,
        error,
      });
    }
  }
  return result;
}

/**
 * Turns one report into the orders module's change (the caller holds the order's row lock).
 * Only an explicit FAILED or SUCCESS moves anything; PENDING changes nothing.
 */
async function decide(
  tx: Tx,
  order: OrderRow | undefined,
  update: PaymentUpdate,
  now: Date,
): Promise<UpdateResult> {
  if (!order)
    return { outcome: "unknown-order", orderId: null, paymentStatus: null, fulfilled: false };
  const unchanged = {
    outcome: "unchanged" as const,
    orderId: order.id,
    paymentStatus: order.paymentStatus,
    fulfilled: false,
  };
  if (update.state === "PENDING") return unchanged;

  if (update.state === "FAILED") {
    if (!(await markPaymentFailed(tx, order, now))) return unchanged;
    return { outcome: "applied", orderId: order.id, paymentStatus: "failed", fulfilled: false };
  }

  // Only an explicit success marks paid; anything else a gateway says is recorded and ignored.
  if (update.state !== "SUCCESS") return unchanged;
  if (update.amountPaise !== null && update.amountPaise !== order.totalPaise) {
    return {
      outcome: "amount-mismatch",
      orderId: order.id,
      paymentStatus: order.paymentStatus,
      fulfilled: false,
    };
  }
  const paid = await markPaid(tx, order, now);
  if (paid.outcome === "unchanged") return unchanged;
  if (paid.outcome === "paid-after-cancel") {
    // The money arrived after the order was cancelled (expired or replaced): recorded and
    // flagged for a refund; the order is not revived, nothing is fulfilled.
    log.error("payment arrived for a cancelled order: refund needed", { orderId: order.id });
  } else if (paid.short > 0) {
    log.warning("a late payment found too little stock", { orderId: order.id, short: paid.short });
  }
  return {
    outcome: paid.outcome,
    orderId: order.id,
    paymentStatus: "paid",
    fulfilled: paid.fulfilled,
  };
}

export type CheckedStatus = {
  state: PaymentState;
  orderNumber: string;
  paymentStatus: PaymentStatus;
  /** The payment arrived after the order was cancelled: it will be refunded. */
  refundDue: boolean;
  /** The ordered products (the return page takes them out of the browser's cart). */
  productIds: string[];
  /** The ordered variants of those products (one cart line each). */
  lines: { productId: string; variantId: string | null }[];
};

/** How often the return page's polling may reach the gateway for one order. */
export const STATUS_THROTTLE_MS = 3000;

/**
 * The payment-result page's verification (checkPaymentGatewayStatus), for the order's owner only.
 * Answers from the order when the payment is settled; otherwise asks the gateway at most once
 * every few seconds per order, whoever is asking.
 */
export async function checkOrderPayment(
  deps: PaymentDeps,
  userId: string,
  orderId: string,
): Promise<CheckedStatus> {
  const { db } = deps;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new OrderNotFoundError();
  const items = await db
    .select({ productId: orderItems.productId, variantId: orderItems.variantId })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const productIds = items.flatMap((i) => (i.productId ? [i.productId] : []));
  const lines = items.flatMap((i) =>
    i.productId ? [{ productId: i.productId, variantId: i.variantId }] : [],
  );
  const answer = (paymentStatus: PaymentStatus, status: string): CheckedStatus => {
    const cancelled = status === "cancelled";
    const paid = paymentStatus === "paid" || paymentStatus === "refunded";
    return {
      // A cancelled order can't be paid any more: the page stops waiting.
      state: cancelled && !paid ? "FAILED" : (settledState(paymentStatus) ?? "PENDING"),
      orderNumber: order.orderNumber,
      paymentStatus,
      refundDue: cancelled && paid,
      productIds,
      lines,
    };
  };
  if (
    settledState(order.paymentStatus) ||
    !order.paymentTransactionId ||
    order.status === "cancelled"
  ) {
    return answer(order.paymentStatus, order.status);
  }
  const now = clock(deps);
  const claimed = await claimStatusCheck(db, orderId, now, STATUS_THROTTLE_MS);
  if (!claimed) return answer(order.paymentStatus, order.status);
  const status = await deps.provider.status({
    transactionId: order.paymentTransactionId,
    providerReference: order.paymentReference,
  });
  await applyPaymentUpdate(deps, {
    transactionId: order.paymentTransactionId,
    state: status.state,
    amountPaise: status.amountPaise,
    source: "status",
  });
  const [after] = await db
    .select({ paymentStatus: orders.paymentStatus, status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  return answer(after?.paymentStatus ?? order.paymentStatus, after?.status ?? order.status);
}

function settledState(paymentStatus: PaymentStatus): PaymentState | null {
  if (paymentStatus === "paid" || paymentStatus === "refunded") return "SUCCESS";
  if (paymentStatus === "failed") return "FAILED";
  return null;
}

export type ReconcileReport = { checked: number; settled: number; expired: number; errors: number };

/**
 * The reconciliation job: asks the gateway about every open payment that is due (PhonePe's
 * schedule), settles what it learns, and cancels orders still unpaid when their payment window has
 * closed, releasing their stock. Claims due orders with SKIP LOCKED so several instances can run it.
 */
export async function reconcilePayments(
  deps: PaymentDeps,
  options: { batch?: number } = {},
): Promise<ReconcileReport> {
  const { db } = deps;
  const now = clock(deps);
  const report: ReconcileReport = { checked: 0, settled: 0, expired: 0, errors: 0 };
  // Claim: each due order's next check moves a minute ahead so no one else takes it meanwhile.
  const due = await claimDuePayments(db, now, options.batch ?? 25);

  for (const order of due) {
    try {
      let paymentStatus = order.paymentStatus;
      let gatewayState: PaymentState | null = null;
      // Failed payments are asked about too: a late success whose notification was lost still
      // has to be found.
      if (order.paymentTransactionId) {
        report.checked += 1;
        const status = await deps.provider.status({
          transactionId: order.paymentTransactionId,
          providerReference: order.paymentReference,
        });
        const applied = await applyPaymentUpdate(deps, {
          transactionId: order.paymentTransactionId,
          state: status.state,
          amountPaise: status.amountPaise,
          source: "reconcile",
        });
        if (applied.outcome === "applied") report.settled += 1;
        paymentStatus = applied.paymentStatus ?? paymentStatus;
        gatewayState = status.state;
      }
      if (paymentStatus === "paid") continue;
      const holdEnds =
        order.paymentExpiresAt ?? new Date(order.createdAt.getTime() + ORDER_HOLD_SECONDS * 1000);
      const started = holdEnds.getTime() - ORDER_HOLD_SECONDS * 1000;
      const delay = nextReconcileDelay((now.getTime() - started) / 1000);
      // The hold is over, and the gateway no longer calls the payment pending (or has for far
      // too long): cancel and release.
      const expired =
        holdEnds <= now &&
        (gatewayState !== "PENDING" ||
          now.getTime() >= holdEnds.getTime() + PENDING_GIVE_UP_SECONDS * 1000);
      if (expired) {
        if (await expireOrder(db, order.id, now)) report.expired += 1;
      } else {
        await scheduleNextCheck(db, order.id, new Date(now.getTime() + (delay ?? 60) * 1000));
      }
    } catch (error) {
      report.errors += 1;
      log.warning("payment reconciliation failed for an order", { orderId: order.id, error });
    }
  }
  return report;
}

/** Reconciliation runs on one instance at a time: the holder of this lease. */
export const RECONCILER_LEASE = "payment-reconciler";

/** Runs the reconciliation job every few seconds until stopped (one run at a time). */
export function startReconciler(deps: PaymentDeps, everyMs = 5000): Loop {
  const loop = startLoop(everyMs, "payment reconciliation run failed", async () => {
    if (await holdLease(deps.db, RECONCILER_LEASE, everyMs * 6)) await reconcilePayments(deps);
  });
  return {
    async stop() {
      await loop.stop();
      await releaseLease(deps.db, RECONCILER_LEASE).catch(() => {});
    },
  };
}
