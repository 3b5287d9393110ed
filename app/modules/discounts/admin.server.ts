import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  discountRedemptions,
  discounts,
  orders,
  products,
  promotions,
  user,
  userProfiles,
} from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { listCategoryNames } from "~/modules/catalog/admin-products.server.ts";
import {
  type DiscountRow,
  storefrontChanged,
  toRule,
} from "~/modules/discounts/discounts.server.ts";
import { discountKindSummary } from "~/rules/discount-display.ts";
import type { DiscountInput } from "~/rules/discount-schema.ts";
import { type DiscountState, type DiscountStatus, discountStatus } from "~/rules/discounts.ts";

/*
 * Discounts in the admin area (issue #23, /admin/discounts): the list with each discount's status,
 * uses and the rupees given away, one discount with its orders, create and edit, and pause,
 * resume, archive and restore. Every change is audited in its own transaction and tells the page
 * cache that the storefront changed (a promotion card shows its discount's code and state).
 */

type Actor = Pick<Viewer, "id" | "email">;

export class DiscountNotFoundError extends Error {}
/** Another discount has this code (codes are unique whatever their case). */
export class DiscountCodeTakenError extends Error {
  readonly code: string;
  /** The other discount's name (null: not known, two saves at once). */
  readonly takenBy: string | null;
  constructor(code: string, takenBy: string | null) {
    super(`The code ${code} is taken`);
    this.code = code;
    this.takenBy = takenBy;
  }
}
/** The total uses can't be set below the uses already counted. */
export class UsageLimitBelowUsesError extends Error {
  readonly uses: number;
  constructor(uses: number) {
    super(`Already used ${uses} times`);
    this.uses = uses;
  }
}
export class DiscountStateError extends Error {}

/** Rupees still given away: uses not given back by a cancelled order. */
const givenAway = sql<number>`coalesce(sum(${discountRedemptions.amountPaise}) filter (where ${discountRedemptions.releasedAt} is null), 0)`;

export type AdminDiscount = DiscountRow & {
  status: DiscountStatus;
  givenAwayPaise: number;
};

function withStats(row: DiscountRow, paise: number, now: Date): AdminDiscount {
  return { ...row, status: discountStatus(toRule(row), now), givenAwayPaise: Number(paise) };
}

/** Every discount, the newest first, archived ones last. */
export async function listDiscountsForAdmin(
  db: Database,
  now: Date = new Date(),
): Promise<AdminDiscount[]> {
  const rows = await db
    .select({ discount: discounts, givenAway })
    .from(discounts)
    .leftJoin(discountRedemptions, eq(discountRedemptions.discountId, discounts.id))
    .groupBy(discounts.id)
    .orderBy(
      sql`case when ${discounts.state} = 'archived' then 1 else 0 end`,
      desc(discounts.createdAt),
      desc(discounts.id),
    );
  return rows.map((r) => withStats(r.discount, r.givenAway, now));
}

export type DiscountOrder = {
  orderId: string;
  orderNumber: string;
  customerName: string;
  customerEmail: string;
  createdAt: Date;
  amountPaise: number;
  /** When the order's cancellation gave the use back (null: it still counts). */
  releasedAt: Date | null;
};

export type AdminDiscountDetail = AdminDiscount & {
  orders: DiscountOrder[];
  /** Names of the chosen products, in the stored order (a deleted one is left out). */
  products: Array<{ id: string; name: string }>;
};

/** The most recent orders a discount's page lists. */
export const DISCOUNT_ORDERS_SHOWN = 200;

export async function getDiscountForAdmin(
  db: Database,
  id: string,
  now: Date = new Date(),
): Promise<AdminDiscountDetail | null> {
  const [row] = await db
    .select({ discount: discounts, givenAway })
    .from(discounts)
    .leftJoin(discountRedemptions, eq(discountRedemptions.discountId, discounts.id))
    .where(eq(discounts.id, id))
    .groupBy(discounts.id);
  if (!row) return null;
  const [used, chosen] = await Promise.all([
    db
      .select({
        orderId: orders.id,
        orderNumber: orders.orderNumber,
        userName: user.name,
        displayName: userProfiles.displayName,
        email: user.email,
        createdAt: orders.createdAt,
        amountPaise: discountRedemptions.amountPaise,
        releasedAt: discountRedemptions.releasedAt,
      })
      .from(discountRedemptions)
      .innerJoin(orders, eq(orders.id, discountRedemptions.orderId))
      .innerJoin(user, eq(user.id, discountRedemptions.userId))
      .leftJoin(userProfiles, eq(userProfiles.userId, discountRedemptions.userId))
      .where(eq(discountRedemptions.discountId, id))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(DISCOUNT_ORDERS_SHOWN),
    productNames(db, row.discount.productIds),
  ]);
  return {
    ...withStats(row.discount, row.givenAway, now),
    orders: used.map((o) => ({
      orderId: o.orderId,
      orderNumber: o.orderNumber,
      customerName: o.displayName || o.userName,
      customerEmail: o.email,
      createdAt: o.createdAt,
      amountPaise: o.amountPaise,
      releasedAt: o.releasedAt,
    })),
    products: chosen,
  };
}

/** Catalogue products by id (names for the product picker), in the order given. */
export async function productNames(
  db: Database,
  ids: readonly string[],
): Promise<Array<{ id: string; name: string }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(and(inArray(products.id, [...ids]), isNull(products.quoteId)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const PRODUCT_SEARCH_LIMIT = 12;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type ProductChoice = { id: string; name: string; category: string };

/** The product picker's search: catalogue products whose name holds the text. */
export function searchProductChoices(db: Database, text: string): Promise<ProductChoice[]> {
  const q = text.trim().toLowerCase().slice(0, 100);
  if (q === "") return Promise.resolve([]);
  return db
    .select({ id: products.id, name: products.name, category: products.category })
    .from(products)
    .where(and(isNull(products.quoteId), sql`lower(${products.name}) like ${`%${escapeLike(q)}%`}`))
    .orderBy(
      sql`case when lower(${products.name}) like ${`${escapeLike(q)}%`} then 0 else 1 end`,
      asc(products.name),
    )
    .limit(PRODUCT_SEARCH_LIMIT);
}

export type CategoryChoice = { name: string; subcategories: string[] };

/** The catalogue's categories, each with the subcategories its products carry. */
export async function categoryChoices(db: Database): Promise<CategoryChoice[]> {
  const [names, pairs] = await Promise.all([
    listCategoryNames(db),
    db
      .selectDistinct({ category: products.category, subcategory: products.subcategory })
      .from(products)
      .where(
        and(
          isNull(products.quoteId),
          sql`${products.subcategory} is not null and trim(${products.subcategory}) <> ''`,
        ),
      )
      .orderBy(asc(products.subcategory)),
  ]);
  return names.map((name) => ({
    name,
    subcategories: [
      ...new Set(
        pairs
          .filter((p) => p.category.trim().toLowerCase() === name.trim().toLowerCase())
          .map((p) => p.subcategory!.trim()),
      ),
    ],
  }));
}

export type DiscountOption = {
  id: string;
  name: string;
  code: string | null;
  summary: string;
  status: DiscountStatus;
};

/** The discounts a promotion card may carry (archived ones aside), for the promotions form. */
export async function discountOptions(
  db: Database,
  now: Date = new Date(),
): Promise<DiscountOption[]> {
  const rows = await db
    .select()
    .from(discounts)
    .where(ne(discounts.state, "archived"))
    .orderBy(asc(discounts.name), asc(discounts.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    code: r.code,
    summary: discountKindSummary(r),
    status: discountStatus(toRule(r), now),
  }));
}

// ---- changes -----------------------------------------------------------------------------------

async function ensureCodeFree(tx: Tx, code: string | null, exceptId: string | null) {
  if (!code) return;
  const [other] = await tx
    .select({ name: discounts.name })
    .from(discounts)
    .where(
      and(
        sql`lower(${discounts.code}) = lower(${code})`,
        exceptId ? ne(discounts.id, exceptId) : undefined,
      ),
    );
  if (other) throw new DiscountCodeTakenError(code, other.name);
}

/** Two saves of one code at once: the unique index refuses the second. */
function codeRace(error: unknown, code: string | null): never {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (
      code &&
      pg.code === "23505" &&
      (!pg.constraint || pg.constraint === "discounts_code_lower_uq")
    ) {
      throw new DiscountCodeTakenError(code, null);
    }
  }
  throw error;
}

const label = (d: { name: string; code: string | null }) =>
  d.code ? `"${d.name}" (${d.code})` : `"${d.name}" (automatic)`;

const stored = (input: DiscountInput) => ({
  name: input.name,
  code: input.code,
  kind: input.kind,
  percentBasisPoints: input.percentBasisPoints,
  capPaise: input.capPaise,
  amountPaise: input.amountPaise,
  buyQuantity: input.buyQuantity,
  getQuantity: input.getQuantity,
  appliesTo: input.appliesTo,
  categories: input.categories,
  productIds: input.productIds,
  minSubtotalPaise: input.minSubtotalPaise,
  firstOrderOnly: input.firstOrderOnly,
  startsAt: input.startsAt,
  endsAt: input.endsAt,
  usageLimit: input.usageLimit,
  perCustomerLimit: input.perCustomerLimit,
  combinesWithAutomatic: input.combinesWithAutomatic,
});

const auditable = (v: ReturnType<typeof stored>) => ({
  ...v,
  startsAt: v.startsAt?.toISOString() ?? null,
  endsAt: v.endsAt?.toISOString() ?? null,
});

/** Creates a discount (live from its start). */
export async function createDiscount(
  db: Database,
  actor: Actor,
  input: DiscountInput,
): Promise<{ id: string }> {
  try {
    return await db.transaction(async (tx) => {
      await ensureCodeFree(tx, input.code, null);
      const values = stored(input);
      const [row] = await tx.insert(discounts).values(values).returning({ id: discounts.id });
      await recordAudit(tx, actor, {
        action: "discount.create",
        targetType: "discount",
        targetId: row.id,
        summary: `Created discount ${label(input)}: ${discountKindSummary(input)}`,
        details: auditable(values),
      });
      await storefrontChanged(tx);
      return row;
    });
  } catch (error) {
    if (error instanceof DiscountCodeTakenError) throw error;
    return codeRace(error, input.code);
  }
}

const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date
    ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime()
    : JSON.stringify(a) === JSON.stringify(b);

/** Changes a discount's terms; its uses and state stay. Names the changed fields in the audit. */
export async function updateDiscount(
  db: Database,
  actor: Actor,
  id: string,
  input: DiscountInput,
): Promise<{ changed: string[] }> {
  try {
    return await db.transaction(async (tx) => {
      // Locked: a checkout counting a use meanwhile waits, so the limit check below holds.
      const [current] = await tx.select().from(discounts).where(eq(discounts.id, id)).for("update");
      if (!current) throw new DiscountNotFoundError();
      await ensureCodeFree(tx, input.code, id);
      if (input.usageLimit !== null && input.usageLimit < current.usesCount) {
        throw new UsageLimitBelowUsesError(current.usesCount);
      }
      const values = stored(input);
      const changed = (Object.keys(values) as Array<keyof typeof values>).filter(
        (k) => !same(current[k], values[k]),
      );
      if (changed.length === 0) return { changed };
      await tx
        .update(discounts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(discounts.id, id));
      await recordAudit(tx, actor, {
        action: "discount.update",
        targetType: "discount",
        targetId: id,
        summary: `Updated discount ${label(input)}: ${changed.join(", ")}`,
        details: { changed, after: auditable(values) },
      });
      await storefrontChanged(tx);
      return { changed };
    });
  } catch (error) {
    if (
      error instanceof DiscountCodeTakenError ||
      error instanceof DiscountNotFoundError ||
      error instanceof UsageLimitBelowUsesError
    ) {
      throw error;
    }
    return codeRace(error, input.code);
  }
}

export type DiscountMove = "pause" | "resume" | "archive" | "restore";

const MOVES: Record<DiscountMove, { from: DiscountState[]; to: DiscountState; verb: string }> = {
  pause: { from: ["active"], to: "paused", verb: "Paused" },
  resume: { from: ["paused"], to: "active", verb: "Resumed" },
  archive: { from: ["active", "paused"], to: "archived", verb: "Archived" },
  // An archived discount comes back paused: staff resume it when they mean to.
  restore: { from: ["archived"], to: "paused", verb: "Restored" },
};

/** Pause, resume, archive or restore a discount. */
export async function moveDiscount(
  db: Database,
  actor: Actor,
  id: string,
  move: DiscountMove,
): Promise<void> {
  const rule = MOVES[move];
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(discounts).where(eq(discounts.id, id)).for("update");
    if (!current) throw new DiscountNotFoundError();
    if (!rule.from.includes(current.state)) throw new DiscountStateError();
    await tx
      .update(discounts)
      .set({ state: rule.to, updatedAt: new Date() })
      .where(eq(discounts.id, id));
    await recordAudit(tx, actor, {
      action: `discount.${move}`,
      targetType: "discount",
      targetId: id,
      summary: `${rule.verb} discount ${label(current)}`,
      details: { from: current.state, to: rule.to },
    });
    await storefrontChanged(tx);
  });
}

/** Promotions (not deleted) whose card carries this discount. */
export async function promotionsShowing(
  db: Database,
  id: string,
): Promise<Array<{ id: string; name: string }>> {
  return db
    .select({ id: promotions.id, name: promotions.name })
    .from(promotions)
    .where(and(eq(promotions.discountId, id), eq(promotions.isDeleted, false)))
    .orderBy(asc(promotions.name));
}

/** Whether a discount exists (the promotions form checks its choice). */
export async function discountExists(db: Database | Tx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: discounts.id }).from(discounts).where(eq(discounts.id, id));
  return Boolean(row);
}
