import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, products, quotes } from "~/db/schema.ts";
import { type CartLine, MAX_LINE_QUANTITY } from "~/rules/cart.ts";

/*
 * A signed-in customer's cart, stored on the server (SPEC.md §7 setCartItem, removeCartItem,
 * clearCart, setAllCartItems). Every function takes the session's user id: callers never pass an
 * id that came from the browser. Only product ids and quantities are stored; name, price, image
 * and category are read from the product each time, so a browser's copy of a price is never kept.
 */

/** A product id the shop doesn't know. */
export class UnknownProductError extends Error {
  readonly productIds: string[];
  constructor(productIds: string[]) {
    super(`Unknown product: ${productIds.join(", ")}`);
    this.productIds = productIds;
    this.name = "UnknownProductError";
  }
}

/** A quantity outside 1..99 (or not a whole number). */
export class InvalidQuantityError extends Error {
  readonly quantity: number;
  constructor(quantity: number) {
    super(`Quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}`);
    this.quantity = quantity;
    this.name = "InvalidQuantityError";
  }
}

export type CartLineInput = { productId: string; quantity: number };

function assertQuantity(quantity: number) {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
    throw new InvalidQuantityError(quantity);
  }
}

type Executor = Pick<Database, "select">;

/**
 * Checks the products exist for this user and returns the quantity each custom part is held at.
 * A custom part (a priced quote) exists only for its owner, only while its quote is in their
 * cart, and always at its quoted quantity.
 */
async function assertProductsExist(
  db: Executor,
  userId: string,
  productIds: string[],
  options: { dropUnsellableParts?: boolean } = {},
): Promise<Map<string, number>> {
  const fixed = new Map<string, number>();
  if (productIds.length === 0) return fixed;
  const found = await db
    .select({
      id: products.id,
      quoteId: products.quoteId,
      owner: quotes.userId,
      status: quotes.status,
      quantity: quotes.quantity,
    })
    .from(products)
    .leftJoin(quotes, eq(quotes.id, products.quoteId))
    .where(inArray(products.id, productIds));
  const known = new Set<string>();
  for (const r of found) {
    if (r.quoteId === null) known.add(r.id);
    else if (r.owner === userId && r.status === "in_cart" && r.quantity) {
      known.add(r.id);
      fixed.set(r.id, r.quantity);
    } else if (options.dropUnsellableParts && r.owner === userId) {
      // The customer's own part that left the cart (ordered, under review, closed): a browser
      // still holding it must not fail the whole write.
      fixed.set(r.id, 0);
      known.add(r.id);
    }
  }
  const unknown = productIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new UnknownProductError(unknown);
  return fixed;
}

/** The user's cart, oldest line first, with each product's current name, price, image, category. */
export async function getCart(db: Database, userId: string): Promise<CartLine[]> {
  const rows = await db
    .select({
      productId: cartItems.productId,
      quantity: cartItems.quantity,
      addedAt: cartItems.addedAt,
      name: products.name,
      pricePaise: products.pricePaise,
      image: products.image,
      category: products.category,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.productId));
  return rows.map((r) => ({ ...r, addedAt: r.addedAt.toISOString() }));
}

/**
 * Replaces the user's whole cart in one transaction (the write-back after a sign-in merge). A
 * product listed twice keeps its larger quantity; lines already stored keep their addedAt.
 */
export async function setAllCartItems(
  db: Database,
  userId: string,
  lines: readonly CartLineInput[],
): Promise<void> {
  const wanted = new Map<string, number>();
  for (const line of lines) {
    assertQuantity(line.quantity);
    wanted.set(line.productId, Math.max(wanted.get(line.productId) ?? 0, line.quantity));
  }
  const productIds = [...wanted.keys()];
  await db.transaction(async (tx) => {
    const fixed = await assertProductsExist(tx, userId, productIds, { dropUnsellableParts: true });
    for (const [id, q] of fixed) {
      if (q === 0) wanted.delete(id);
      else wanted.set(id, q);
    }
    const existing = await tx
      .select({ productId: cartItems.productId, addedAt: cartItems.addedAt })
      .from(cartItems)
      .where(eq(cartItems.userId, userId));
    const addedAt = new Map(existing.map((r) => [r.productId, r.addedAt]));
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    const kept = [...wanted.keys()];
    if (kept.length === 0) return;
    // New lines are a millisecond apart, so the cart keeps the order it was sent in.
    const now = Date.now();
    await tx.insert(cartItems).values(
      kept.map((productId, i) => ({
        userId,
        productId,
        quantity: wanted.get(productId)!,
        addedAt: addedAt.get(productId) ?? new Date(now + i),
      })),
    );
  });
}

/** Sets one line's quantity (adding the line if needed); quantity 0 removes it. */
export async function setCartItem(
  db: Database,
  userId: string,
  productId: string,
  quantity: number,
): Promise<void> {
  if (quantity === 0) return removeCartItem(db, userId, productId);
  assertQuantity(quantity);
  const fixed = await assertProductsExist(db, userId, [productId]);
  const stored = fixed.get(productId) ?? quantity;
  await db
    .insert(cartItems)
    .values({ userId, productId, quantity: stored })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.productId],
      set: { quantity: stored },
    });
}

export async function removeCartItem(
  db: Database,
  userId: string,
  productId: string,
): Promise<void> {
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
}

export async function clearCart(db: Database, userId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}

/**
 * Takes an order's products out of its customer's stored cart, inside the order's own
 * transaction: all lines for an order placed without the gateway (cash on delivery), the ordered
 * products when an online payment succeeds (lines added since stay).
 */
export async function removeOrderedLines(
  tx: Pick<Database, "delete">,
  userId: string,
  productIds: string[] | "all",
): Promise<void> {
  if (productIds === "all") {
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    return;
  }
  if (productIds.length === 0) return;
  await tx
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), inArray(cartItems.productId, productIds)));
}
