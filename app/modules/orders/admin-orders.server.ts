import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  lt,
  or,
  type SQL,
} from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  adminAudit,
  orderItems,
  orders,
  products,
  quotes,
  type ReturnItem,
  returnRequests,
  user,
  userProfiles,
} from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import {
  cancelOrder,
  decideReturn,
  markCodPaid,
  markDelivered,
  markShipped,
  OrderNotFoundError,
  OrderStateError,
  type OrderTransitionDeps,
  recordRefund,
} from "~/modules/orders/lifecycle.server.ts";
import { csvDateTime, DEFAULT_ADMIN_TIMEZONE } from "~/rules/admin-dates.ts";
import {
  ADMIN_ORDERS_PAGE_SIZE,
  allowedActions,
  auditAction,
  csvSafe,
  escapeLike,
  itemsSummary,
  type OrderAction,
  type OrderFilters,
  type OrderState,
  type ReturnStatus,
  refusal,
  type ShipInput,
} from "~/rules/admin-orders.ts";
import { istDayEnd, istDayStart } from "~/rules/india-time.ts";
import { formatPaise, paiseToRupeesText } from "~/rules/money.ts";
import { appliedLabel, type OrderDiscountRow, orderDiscountRows } from "~/rules/order-discounts.ts";
import { type OrderStatus, type PaymentStatus, paymentMethodLabel } from "~/rules/orders.ts";
import type { AddressSnapshot } from "~/rules/stored-shapes.ts";
import { optionLabel } from "~/rules/variants.ts";

/*
 * The admin's orders (issue 7: /admin/orders): every customer's orders filtered by status, date
 * (days in India), text and pending return requests; one order with its customer; the CSV
 * export; and the staff actions of DESIGN.md decision 5, each recorded in the audit log.
 */

export { OrderNotFoundError, OrderStateError };

const customerName = userProfiles.displayName;

/** The WHERE clause for the list's filters (the query joins user, profile and return). */
function whereFor(f: OrderFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (f.status) conditions.push(eq(orders.status, f.status));
  if (f.from) conditions.push(gte(orders.createdAt, istDayStart(f.from)));
  if (f.to) conditions.push(lt(orders.createdAt, istDayEnd(f.to)));
  if (f.view === "returns") conditions.push(eq(returnRequests.status, "requested"));
  if (f.q) {
    const pattern = `%${escapeLike(f.q)}%`;
    const text = or(
      ilike(orders.orderNumber, pattern),
      ilike(user.name, pattern),
      ilike(customerName, pattern),
      ilike(user.email, pattern),
    );
    if (text) conditions.push(text);
  }
  return conditions.length ? and(...conditions) : undefined;
}

export type AdminOrderRow = {
  id: string;
  orderNumber: string;
  createdAt: string;
  customerName: string;
  customerEmail: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: string;
  paymentLabel: string;
  totalPaise: number;
  currency: string;
  returnStatus: ReturnStatus | null;
};

export type AdminOrderPage = {
  orders: AdminOrderRow[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
};

const listColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  createdAt: orders.createdAt,
  userName: user.name,
  displayName: customerName,
  email: user.email,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  paymentMethod: orders.paymentMethod,
  paymentProvider: orders.paymentProvider,
  subtotalPaise: orders.subtotalPaise,
  discountPaise: orders.discountPaise,
  appliedDiscounts: orders.appliedDiscounts,
  shippingPaise: orders.shippingPaise,
  codFeePaise: orders.codFeePaise,
  taxPaise: orders.taxPaise,
  totalPaise: orders.totalPaise,
  currency: orders.currency,
  returnStatus: returnRequests.status,
};

function listQuery(db: Database, f: OrderFilters) {
  return db
    .select(listColumns)
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.userId))
    .leftJoin(returnRequests, eq(returnRequests.orderId, orders.id))
    .where(whereFor(f))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .$dynamic();
}

type ListRow = Awaited<ReturnType<typeof listQuery>>[number];

const toRow = (r: ListRow): AdminOrderRow => ({
  id: r.id,
  orderNumber: r.orderNumber,
  createdAt: r.createdAt.toISOString(),
  customerName: r.displayName?.trim() || r.userName,
  customerEmail: r.email,
  status: r.status,
  paymentStatus: r.paymentStatus,
  paymentMethod: r.paymentMethod,
  paymentLabel: paymentMethodLabel(r.paymentMethod, r.paymentProvider),
  totalPaise: r.totalPaise,
  currency: r.currency || "INR",
  returnStatus: r.returnStatus ?? null,
});

/** One page of the filtered orders, newest first, with the total count. */
export async function listAdminOrders(
  db: Database,
  filters: OrderFilters,
  pageSize = ADMIN_ORDERS_PAGE_SIZE,
): Promise<AdminOrderPage> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.userId))
    .leftJoin(returnRequests, eq(returnRequests.orderId, orders.id))
    .where(whereFor(filters));
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(filters.page, pageCount);
  const rows = await listQuery(db, filters)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { orders: rows.map(toRow), total, page, pageCount, pageSize };
}

/** How many return requests await a decision (the list's "Return requests" tab). */
export async function countReturnRequests(db: Database): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(returnRequests)
    .where(eq(returnRequests.status, "requested"));
  return Number(n);
}

// ---- one order ---------------------------------------------------------------------------------

export type AdminOrderDetail = {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
  customer: { id: string; name: string; email: string; phone: string | null };
  items: Array<{
    id: string;
    productId: string | null;
    name: string;
    /** The option values as ordered ("Colour: Red · Size: 7 cm"); empty without options. */
    options: string;
    imageUrl: string | null;
    quantity: number;
    unitPricePaise: number;
    /** The line's share of the order's item discounts. */
    discountPaise: number;
    hsnCode: string;
    /** Set for a custom part: the quote it was printed from (its model file, the request). */
    quoteId: string | null;
    /** A custom part's ready-by day (India) and whether its print time is recorded. */
    readyBy: string | null;
    printed: boolean;
  }>;
  subtotalPaise: number;
  discountPaise: number;
  /** The codes and offers (with their discount's id for its admin page) and what each took off. */
  discounts: OrderDiscountRow[];
  shippingPaise: number;
  /** The cash-on-delivery fee (0 when paid online). */
  codFeePaise: number;
  taxPaise: number;
  totalPaise: number;
  taxRateBasisPoints: number;
  currency: string;
  shippingAddress: AddressSnapshot;
  billingAddress: AddressSnapshot;
  shippingMethod: { id: string; label: string; costPaise: number };
  paymentMethod: string;
  paymentLabel: string;
  paymentProvider: string;
  paymentStatus: PaymentStatus;
  paymentTransactionId: string | null;
  paymentReference: string | null;
  paidAt: string | null;
  tracking: { carrier: string; trackingNumber: string; trackingUrl: string | null } | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  cancelledAt: string | null;
  invoiceNumber: string | null;
  notes: string | null;
  returnRequest: {
    status: ReturnStatus;
    reason: string;
    items: ReturnItem[];
    createdAt: string;
    updatedAt: string;
  } | null;
  actions: OrderAction[];
  history: Array<{ id: string; action: string; summary: string; actorEmail: string; at: string }>;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** One order with its customer, items, return request, allowed actions and audit history. */
export async function getAdminOrder(db: Database, orderId: string): Promise<AdminOrderDetail> {
  const [row] = await db
    .select({
      order: orders,
      userName: user.name,
      email: user.email,
      displayName: userProfiles.displayName,
      phone: userProfiles.phone,
    })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new OrderNotFoundError();
  const o = row.order;
  const [items, [ret], history] = await Promise.all([
    db
      .select({
        ...getTableColumns(orderItems),
        quoteId: products.quoteId,
        readyBy: quotes.readyBy,
        printedAt: quotes.printedAt,
      })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(quotes, eq(quotes.id, products.quoteId))
      .where(eq(orderItems.orderId, o.id))
      .orderBy(asc(orderItems.name)),
    db.select().from(returnRequests).where(eq(returnRequests.orderId, o.id)),
    db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.targetType, "order"), eq(adminAudit.targetId, o.id)))
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(50),
  ]);
  const state: OrderState = {
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentMethod: o.paymentMethod,
    returnStatus: ret?.status ?? null,
  };
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    customer: {
      id: o.userId,
      name: row.displayName?.trim() || row.userName,
      email: row.email,
      phone: row.phone,
    },
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      name: i.name,
      /** "Colour: Red · Size: 7 cm" as ordered; empty for a product without options. */
      options: optionLabel(i.options),
      imageUrl: i.imageUrl,
      quantity: i.quantity,
      unitPricePaise: i.unitPricePaise,
      discountPaise: i.discountPaise,
      hsnCode: i.hsnCode,
      quoteId: i.quoteId,
      readyBy: i.readyBy,
      printed: i.printedAt !== null,
    })),
    subtotalPaise: o.subtotalPaise,
    discountPaise: o.discountPaise,
    discounts: orderDiscountRows({
      appliedDiscounts: o.appliedDiscounts,
      discountPaise: o.discountPaise,
      lineDiscountPaise: items.reduce((s, i) => s + i.discountPaise, 0),
    }),
    shippingPaise: o.shippingPaise,
    codFeePaise: o.codFeePaise,
    taxPaise: o.taxPaise,
    totalPaise: o.totalPaise,
    taxRateBasisPoints: o.taxRateBasisPoints,
    currency: o.currency || "INR",
    shippingAddress: o.shippingAddress,
    billingAddress: o.billingAddress,
    shippingMethod: o.shippingMethod,
    paymentMethod: o.paymentMethod,
    paymentLabel: paymentMethodLabel(o.paymentMethod, o.paymentProvider),
    paymentProvider: o.paymentProvider,
    paymentStatus: o.paymentStatus,
    paymentTransactionId: o.paymentTransactionId,
    paymentReference: o.paymentReference,
    paidAt: iso(o.paidAt),
    tracking:
      o.carrier && o.trackingNumber
        ? { carrier: o.carrier, trackingNumber: o.trackingNumber, trackingUrl: o.trackingUrl }
        : null,
    shippedAt: iso(o.shippedAt),
    deliveredAt: iso(o.deliveredAt),
    cancelledAt: iso(o.cancelledAt),
    invoiceNumber: o.invoiceNumber,
    notes: o.notes,
    returnRequest: ret
      ? {
          status: ret.status,
          reason: ret.reason,
          items: ret.items,
          createdAt: ret.createdAt.toISOString(),
          updatedAt: ret.updatedAt.toISOString(),
        }
      : null,
    actions: allowedActions(state),
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      summary: h.summary,
      actorEmail: h.actorEmail,
      at: h.createdAt.toISOString(),
    })),
  };
}

// ---- CSV ---------------------------------------------------------------------------------------

const CSV_BATCH = 500;
/** The export stops here (a safety net: the shop is far from it). */
export const CSV_MAX_ROWS = 50_000;

/**
 * The filtered orders (every page) as CSV rows, formula-safe, amounts in rupees, times in
 * `timeZone` (the admin's, as on their screens).
 */
export async function orderCsvRows(
  db: Database,
  filters: OrderFilters,
  timeZone: string = DEFAULT_ADMIN_TIMEZONE,
): Promise<string[][]> {
  const out: string[][] = [];
  for (let offset = 0; offset < CSV_MAX_ROWS; offset += CSV_BATCH) {
    const rows = await listQuery(db, filters).limit(CSV_BATCH).offset(offset);
    if (rows.length === 0) break;
    const items = await db
      .select({ orderId: orderItems.orderId, name: orderItems.name, quantity: orderItems.quantity })
      .from(orderItems)
      .where(
        inArray(
          orderItems.orderId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(orderItems.name));
    const itemsBy = Map.groupBy(items, (i) => i.orderId);
    for (const r of rows) {
      const row = toRow(r);
      out.push(
        [
          row.orderNumber,
          csvDateTime(r.createdAt, timeZone),
          row.customerName,
          row.customerEmail,
          row.status,
          row.paymentStatus,
          row.paymentLabel,
          paiseToRupeesText(r.subtotalPaise),
          r.appliedDiscounts.map(appliedLabel).join("; "),
          paiseToRupeesText(r.discountPaise),
          paiseToRupeesText(r.shippingPaise),
          paiseToRupeesText(r.codFeePaise),
          paiseToRupeesText(r.taxPaise),
          paiseToRupeesText(r.totalPaise),
          itemsSummary(itemsBy.get(r.id) ?? []),
        ].map(csvSafe),
      );
    }
    if (rows.length < CSV_BATCH) break;
  }
  return out;
}

// ---- actions -----------------------------------------------------------------------------------

export type OrderActionDeps = OrderTransitionDeps;

async function currentState(db: Database, orderId: string) {
  const [row] = await db
    .select({
      orderNumber: orders.orderNumber,
      status: orders.status,
      paymentStatus: orders.paymentStatus,
      paymentMethod: orders.paymentMethod,
      totalPaise: orders.totalPaise,
      currency: orders.currency,
      trackingNumber: orders.trackingNumber,
      returnStatus: returnRequests.status,
    })
    .from(orders)
    .leftJoin(returnRequests, eq(returnRequests.orderId, orders.id))
    .where(eq(orders.id, orderId));
  if (!row) throw new OrderNotFoundError();
  return row;
}

/**
 * Runs one of the order module's own transitions (each has its own transaction and may e-mail
 * after committing). If it fails after its change committed (the e-mail failed), the change
 * still stands: it is audited and reported as done, and the e-mail failure is logged.
 */
async function committedAnyway(
  db: Database,
  orderId: string,
  run: () => Promise<void>,
  committed: (now: Awaited<ReturnType<typeof currentState>>) => boolean,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof OrderStateError || error instanceof OrderNotFoundError) throw error;
    const now = await currentState(db, orderId).catch(() => null);
    if (!now || !committed(now)) throw error;
    log.error("order changed, but the follow-up failed", { error, orderId });
  }
}

/**
 * Applies an admin action to an order if its state allows it (else OrderStateError, a 409), and
 * records it in the audit log.
 */
export async function applyOrderAction(
  deps: OrderActionDeps,
  viewer: Pick<Viewer, "id" | "email">,
  orderId: string,
  action: OrderAction,
  ship?: ShipInput,
): Promise<void> {
  const { db } = deps;
  const before = await currentState(db, orderId);
  const reason = refusal(action, {
    status: before.status,
    paymentStatus: before.paymentStatus,
    paymentMethod: before.paymentMethod,
    returnStatus: before.returnStatus ?? null,
  });
  if (reason) throw new OrderStateError(reason);
  const number = before.orderNumber;
  const audit = (summary: string, details: Record<string, unknown> = {}) => ({
    action: auditAction[action],
    targetType: "order",
    targetId: orderId,
    summary,
    details: { orderNumber: number, from: before.status, ...details },
  });

  // Each change and its audit entry commit together (inside the transition's transaction).
  const record =
    (summary: string, details: Record<string, unknown> = {}) =>
    (tx: Tx) =>
      recordAudit(tx, viewer, audit(summary, details));

  switch (action) {
    case "ship": {
      if (!ship) throw new Error("ship needs tracking details");
      await committedAnyway(
        db,
        orderId,
        () =>
          markShipped(
            deps,
            orderId,
            ship,
            record(`Shipped ${number} with ${ship.carrier} (${ship.trackingNumber})`, {
              to: "shipped",
              carrier: ship.carrier,
              trackingNumber: ship.trackingNumber,
              trackingUrl: ship.trackingUrl,
            }),
          ),
        (now) => now.status === "shipped" && now.trackingNumber === ship.trackingNumber,
      );
      return;
    }
    case "deliver": {
      await committedAnyway(
        db,
        orderId,
        () =>
          markDelivered(deps, orderId, record(`Marked ${number} delivered`, { to: "delivered" })),
        (now) => now.status === "delivered",
      );
      return;
    }
    case "cancel": {
      await committedAnyway(
        db,
        orderId,
        () =>
          cancelOrder(
            deps,
            orderId,
            record(`Cancelled ${number}; its stock went back`, { to: "cancelled" }),
          ),
        (now) => now.status === "cancelled",
      );
      return;
    }
    case "cod-paid": {
      await markCodPaid(
        deps,
        orderId,
        record(`Recorded the cash payment for ${number}`, {
          paymentFrom: before.paymentStatus,
          paymentTo: "paid",
        }),
      );
      return;
    }
    case "approve-return":
    case "reject-return": {
      const decision = action === "approve-return" ? "approved" : "rejected";
      await db.transaction(async (tx) => {
        await decideReturn(tx, orderId, decision);
        await recordAudit(
          tx,
          viewer,
          audit(`${decision === "approved" ? "Approved" : "Rejected"} the return for ${number}`, {
            returnFrom: "requested",
            returnTo: decision,
          }),
        );
      });
      return;
    }
    case "refund": {
      await db.transaction(async (tx) => {
        const o = await recordRefund(tx, orderId);
        const to = o.status === "delivered" ? "refunded" : o.status;
        await recordAudit(
          tx,
          viewer,
          audit(`Recorded a refund of ${formatPaise(o.totalPaise, o.currency)} for ${number}`, {
            to,
            paymentFrom: o.paymentStatus,
            paymentTo: "refunded",
            amountPaise: o.totalPaise,
          }),
        );
      });
      return;
    }
  }
}
