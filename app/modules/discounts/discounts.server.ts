import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import { discountRedemptions, discounts, orders } from "~/db/schema.ts";
import { STOREFRONT_CHANNEL } from "~/lib/page-cache.server.ts";
import {
  type AppliedDiscount,
  CODE_PATTERN,
  type DiscountCustomer,
  type DiscountLine,
  type DiscountRule,
  GUEST,
  type PricedOrder,
  type PricingSettings,
  priceOrder,
} from "~/rules/discounts.ts";

/*
 * Discount codes and automatic offers (issue #23). The rules (app/rules/discounts.ts) decide what
 * a discount takes off; this module reads discounts for them, and counts and gives back uses. A
 * use is counted in the order's own transaction, under the discount's row lock, so a code with
 * one use left goes to exactly one order; a cancelled order gives its uses back once (the orders
 * module's one cancel path calls releaseDiscountUses).
 */

export type DiscountRow = typeof discounts.$inferSelect;

export function toRule(row: DiscountRow): DiscountRule {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    kind: row.kind,
    percentBasisPoints: row.percentBasisPoints,
    capPaise: row.capPaise,
    amountPaise: row.amountPaise,
    buyQuantity: row.buyQuantity,
    getQuantity: row.getQuantity,
    appliesTo: row.appliesTo,
    categories: row.categories,
    productIds: row.productIds,
    minSubtotalPaise: row.minSubtotalPaise,
    firstOrderOnly: row.firstOrderOnly,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    usesCount: row.usesCount,
    combinesWithAutomatic: row.combinesWithAutomatic,
    state: row.state,
  };
}

/** The discount a typed code names (any case), or null. */
export async function findCode(db: Database | Tx, text: string): Promise<DiscountRule | null> {
  const code = text.trim();
  if (!CODE_PATTERN.test(code)) return null;
  const [row] = await db
    .select()
    .from(discounts)
    .where(sql`lower(${discounts.code}) = lower(${code})`);
  return row ? toRule(row) : null;
}

/** Automatic offers that are switched on (the rules check their dates and limits). */
export async function automaticOffers(db: Database | Tx): Promise<DiscountRule[]> {
  const rows = await db
    .select()
    .from(discounts)
    .where(and(eq(discounts.state, "active"), isNull(discounts.code)))
    .orderBy(asc(discounts.createdAt), asc(discounts.id));
  return rows.map(toRule);
}

/**
 * The customer's own unpaid online orders: their next order replaces them (checkout cancels them
 * first, giving their discount uses back), so what the customer is shown must not count them.
 */
const replacedByNextOrder = and(
  eq(orders.status, "pending"),
  inArray(orders.paymentStatus, ["unpaid", "failed"]),
  ne(orders.paymentMethod, "cod"),
);

type CustomerUses = {
  customer: DiscountCustomer;
  /** Uses of each discount held by the customer's unpaid online orders (not counted for them). */
  heldByOpenOrders: ReadonlyMap<string, number>;
};

async function customerUses(db: Database | Tx, userId: string | null): Promise<CustomerUses> {
  if (!userId) return { customer: GUEST, heldByOpenOrders: new Map() };
  const [earlier, uses] = await Promise.all([
    db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          ne(orders.status, "cancelled"),
          sql`not (${replacedByNextOrder})`,
        ),
      )
      .limit(1),
    db
      .select({
        discountId: discountRedemptions.discountId,
        uses: sql<number>`count(*)::int`,
        held: sql<number>`(count(*) filter (where ${replacedByNextOrder}))::int`,
      })
      .from(discountRedemptions)
      .innerJoin(orders, eq(orders.id, discountRedemptions.orderId))
      .where(and(eq(discountRedemptions.userId, userId), isNull(discountRedemptions.releasedAt)))
      .groupBy(discountRedemptions.discountId),
  ]);
  return {
    customer: {
      signedIn: true,
      hasEarlierOrders: earlier.length > 0,
      usesByDiscount: new Map(uses.map((u) => [u.discountId, Number(u.uses) - Number(u.held)])),
    },
    heldByOpenOrders: new Map(
      uses.filter((u) => Number(u.held) > 0).map((u) => [u.discountId, Number(u.held)]),
    ),
  };
}

/**
 * What a discount's conditions need to know about the customer (a guest: null), as their next
 * order will see it: their unpaid online orders, which it replaces, neither make them a returning
 * customer nor hold their uses.
 */
export async function discountCustomer(
  db: Database | Tx,
  userId: string | null,
): Promise<DiscountCustomer> {
  return (await customerUses(db, userId)).customer;
}

export type PriceLinesInput = {
  lines: readonly DiscountLine[];
  settings: PricingSettings;
  /** The code the customer typed (empty or null: none). */
  code?: string | null;
  userId: string | null;
  now?: Date;
};

/** The figures the cart and checkout show: the rules over the current discounts. */
export async function priceLines(db: Database | Tx, input: PriceLinesInput): Promise<PricedOrder> {
  const text = input.code?.trim() || null;
  const [offers, { customer, heldByOpenOrders }, found] = await Promise.all([
    automaticOffers(db),
    customerUses(db, input.userId),
    text ? findCode(db, text) : Promise.resolve(null),
  ]);
  // A use the customer's own replaced order holds comes back when this order is placed.
  const released = (r: DiscountRule): DiscountRule => {
    const held = heldByOpenOrders.get(r.id) ?? 0;
    return held > 0 ? { ...r, usesCount: Math.max(0, r.usesCount - held) } : r;
  };
  const automatic = offers.map(released);
  const rule = found ? released(found) : null;
  return priceOrder({
    lines: input.lines,
    settings: input.settings,
    code: text ? { text, rule } : undefined,
    automatic,
    customer,
    now: input.now ?? new Date(),
  });
}

/**
 * In the order's transaction (the caller holds the customer's row lock): prices the lines with
 * the discounts locked, so their use counts can't change until the order commits. Locks are taken
 * in id order, after the products' (checkout's lock order).
 */
export async function priceLinesLocked(tx: Tx, input: PriceLinesInput): Promise<PricedOrder> {
  const first = await priceLines(tx, input);
  const ids = first.applied.map((a) => a.discountId);
  const text = input.code?.trim() || null;
  const codeRule = text ? await findCode(tx, text) : null;
  if (codeRule && !ids.includes(codeRule.id)) ids.push(codeRule.id);
  if (ids.length === 0) return first;
  await tx
    .select({ id: discounts.id })
    .from(discounts)
    .where(inArray(discounts.id, ids))
    .orderBy(asc(discounts.id))
    .for("update");
  // Read again under the locks: another order may have taken the last use meanwhile.
  return priceLines(tx, input);
}

/**
 * An offer or code that another order used up after this one was priced: an automatic offer the
 * second pricing chose is not among the discounts locked before it. Checkout refuses the order
 * with words for the customer (the transaction writes nothing), never a server error.
 */
export class DiscountUsedUpError extends Error {
  override name = "DiscountUsedUpError";
  readonly discount: AppliedDiscount;
  constructor(discount: AppliedDiscount) {
    super(`Discount ${discount.discountId} has no use left`);
    this.discount = discount;
  }
}

/**
 * Counts the order's uses of its discounts (same transaction as the order, locks held). Throws
 * DiscountUsedUpError when one has no use left.
 */
export async function recordDiscountUses(
  tx: Tx,
  order: { id: string; userId: string },
  applied: readonly AppliedDiscount[],
  now: Date,
): Promise<void> {
  for (const a of applied) {
    const [counted] = await tx
      .update(discounts)
      .set({ usesCount: sql`${discounts.usesCount} + 1`, updatedAt: now })
      .where(
        and(
          eq(discounts.id, a.discountId),
          sql`(${discounts.usageLimit} is null or ${discounts.usesCount} < ${discounts.usageLimit})`,
        ),
      )
      .returning({ usesCount: discounts.usesCount, usageLimit: discounts.usageLimit });
    if (!counted) throw new DiscountUsedUpError(a);
    // Its last use: a promotion card showing it now says it has ended (or hides).
    if (counted.usageLimit !== null && counted.usesCount === counted.usageLimit) {
      await storefrontChanged(tx);
    }
    await tx.insert(discountRedemptions).values({
      discountId: a.discountId,
      orderId: order.id,
      userId: order.userId,
      amountPaise: a.itemsPaise + a.shippingPaise,
      createdAt: now,
    });
  }
}

/**
 * Gives a cancelled order's discount uses back, once (the caller, the orders module, holds the
 * order's row lock): a use already given back changes nothing.
 */
export async function releaseDiscountUses(tx: Tx, orderId: string, now: Date): Promise<number> {
  const released = await tx
    .update(discountRedemptions)
    .set({ releasedAt: now })
    .where(and(eq(discountRedemptions.orderId, orderId), isNull(discountRedemptions.releasedAt)))
    .returning({ discountId: discountRedemptions.discountId });
  const ids = released.map((r) => r.discountId).sort();
  for (const id of ids) {
    const [after] = await tx
      .update(discounts)
      .set({ usesCount: sql`greatest(${discounts.usesCount} - 1, 0)`, updatedAt: now })
      .where(eq(discounts.id, id))
      .returning({ usesCount: discounts.usesCount, usageLimit: discounts.usageLimit });
    // Used up no longer: its promotion card offers it again.
    if (after?.usageLimit !== null && after?.usesCount === after.usageLimit - 1) {
      await storefrontChanged(tx);
    }
  }
  return ids.length;
}

/** The cached storefront pages show promotion cards with discounts: they are rendered again. */
export async function storefrontChanged(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${STOREFRONT_CHANNEL}, '')`);
}
