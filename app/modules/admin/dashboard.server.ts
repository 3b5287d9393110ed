import { and, count, desc, eq, gt, gte, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { orders, products, quotes, returnRequests } from "~/db/schema.ts";
import { IST_OFFSET_MS } from "~/rules/india-time.ts";

/*
 * The admin dashboard's figures: paid orders and their revenue per India day (Asia/Kolkata is
 * UTC+05:30 all year, no daylight saving) and the work waiting for staff.
 */

const IST_OFFSET_SECONDS = IST_OFFSET_MS / 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The India calendar day of an instant as a day number (days since 1970-01-01, IST). */
export function istDayNumber(date: Date): number {
  return Math.floor((date.getTime() / 1000 + IST_OFFSET_SECONDS) / 86_400);
}

/** "2026-11-22" for an IST day number. */
export function istDayKey(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The instant an IST day begins (its midnight in India). */
export function istDayStart(day: number): Date {
  return new Date(day * DAY_MS - IST_OFFSET_SECONDS * 1000);
}

export type DailySales = {
  /** "YYYY-MM-DD", an India calendar day. */
  day: string;
  orders: number;
  revenuePaise: number;
};

/**
 * Paid orders (payment status paid) and their total per India day, for the `days` days ending
 * today (oldest first, days without orders included as zeros). An order counts on the day it was
 * placed.
 */
export async function dailySales(
  db: Database,
  options: { days?: number; now?: Date } = {},
): Promise<DailySales[]> {
  const days = options.days ?? 30;
  const today = istDayNumber(options.now ?? new Date());
  const first = today - days + 1;
  const dayOf = sql<number>`floor((extract(epoch from ${orders.createdAt}) + ${sql.raw(String(IST_OFFSET_SECONDS))}) / 86400)::int`;
  const rows = await db
    .select({
      day: dayOf.mapWith(Number),
      orders: count(),
      revenue: sql<number>`coalesce(sum(${orders.totalPaise}), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(
      and(
        eq(orders.paymentStatus, "paid"),
        gte(orders.createdAt, istDayStart(first)),
        lt(orders.createdAt, istDayStart(today + 1)),
      ),
    )
    .groupBy(sql`1`);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const row = byDay.get(first + i);
    return {
      day: istDayKey(first + i),
      orders: row?.orders ?? 0,
      revenuePaise: row?.revenue ?? 0,
    };
  });
}

export type DiscountsGiven = {
  /** Paid orders in the period that carried a code or an automatic offer. */
  orders: number;
  /** What those discounts took off (items and shipping). */
  amountPaise: number;
};

/**
 * The discounts given on paid orders placed in the `days` India days ending today: the same
 * orders the sales chart counts (issue #23).
 */
export async function discountsGiven(
  db: Database,
  options: { days?: number; now?: Date } = {},
): Promise<DiscountsGiven> {
  const days = options.days ?? 30;
  const today = istDayNumber(options.now ?? new Date());
  const [row] = await db
    .select({
      orders: count(),
      amount: sql<number>`coalesce(sum(${orders.discountPaise}), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(
      and(
        eq(orders.paymentStatus, "paid"),
        gt(orders.discountPaise, 0),
        gte(orders.createdAt, istDayStart(today - days + 1)),
        lt(orders.createdAt, istDayStart(today + 1)),
      ),
    );
  return { orders: row?.orders ?? 0, amountPaise: row?.amount ?? 0 };
}

export type WaitingWork = {
  /** Orders waiting to be shipped (status processing): paid online, or cash on delivery. */
  ordersToShip: number;
  /** Return requests nobody has approved or rejected yet. */
  returnsWaiting: number;
  /** Custom print quote requests waiting for staff's answer. */
  quotesWaiting: number;
};

export async function waitingWork(db: Database): Promise<WaitingWork> {
  const [[toShip], [returnsRow], [quotesRow]] = await Promise.all([
    db.select({ n: count() }).from(orders).where(eq(orders.status, "processing")),
    db.select({ n: count() }).from(returnRequests).where(eq(returnRequests.status, "requested")),
    db.select({ n: count() }).from(quotes).where(eq(quotes.status, "review_requested")),
  ]);
  return {
    ordersToShip: toShip?.n ?? 0,
    returnsWaiting: returnsRow?.n ?? 0,
    quotesWaiting: quotesRow?.n ?? 0,
  };
}

export const PRODUCTS_PAGE_SIZE = 100;

export type ProductRow = {
  id: string;
  name: string;
  pricePaise: number;
  stockCount: number | null;
  inStock: boolean;
  isActive: boolean;
};

export type ProductsPage = {
  products: ProductRow[];
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
};

/** Every product, newest first, `PRODUCTS_PAGE_SIZE` per page (page 1 first). */
export async function allProductsPage(db: Database, page: number): Promise<ProductsPage> {
  const catalogue = isNull(products.quoteId);
  const [{ n: total }] = await db.select({ n: count() }).from(products).where(catalogue);
  const pageCount = Math.max(1, Math.ceil(total / PRODUCTS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      pricePaise: products.pricePaise,
      stockCount: products.stockCount,
      inStock: products.inStock,
      isActive: products.isActive,
    })
    .from(products)
    .where(catalogue)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(PRODUCTS_PAGE_SIZE)
    .offset((current - 1) * PRODUCTS_PAGE_SIZE);
  return { products: rows, page: current, pageCount, total, pageSize: PRODUCTS_PAGE_SIZE };
}
