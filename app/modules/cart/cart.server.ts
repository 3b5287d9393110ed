import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, products, productVariants, quotes } from "~/db/schema.ts";
import { defaultVariantIds, variantOptionsOf } from "~/modules/catalog/variants.server.ts";
import { type CartLine, MAX_LINE_QUANTITY } from "~/rules/cart.ts";

/*
 * A signed-in customer's cart, stored on the server (SPEC.md §7 setCartItem, removeCartItem,
 * clearCart, setAllCartItems). Every function takes the session's user id: callers never pass an
 * id that came from the browser. One line per variant (decision 0015). Only product and variant
 * ids and quantities are stored; name, price, image
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

/** A line to store: a variant of a product (none given: the product's default variant). */
export type CartLineInput = { productId: string; variantId?: string | null; quantity: number };

/** A variant id that isn't one of the product's (a browser may send any id). */
export class UnknownVariantError extends Error {
  readonly variantIds: string[];
  constructor(variantIds: string[]) {
    super(`Unknown variant: ${variantIds.join(", ")}`);
    this.variantIds = variantIds;
    this.name = "UnknownVariantError";
  }
}

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
  const { fixed, unknown } = await productsKnownTo(db, userId, productIds, options);
  if (unknown.length > 0) throw new UnknownProductError(unknown);
  return fixed;
}

/**
 * Which of the products the user may have in the cart: catalogue products, and their own custom
 * parts in the cart (`fixed`: the quantity a part's quote fixes; 0 with `dropUnsellableParts` for
 * their part that has left the cart). `unknown`: the rest (gone, or someone else's part).
 */
async function productsKnownTo(
  db: Executor,
  userId: string,
  productIds: string[],
  options: { dropUnsellableParts?: boolean } = {},
): Promise<{ fixed: Map<string, number>; unknown: string[] }> {
  const fixed = new Map<string, number>();
  if (productIds.length === 0) return { fixed, unknown: [] };
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
  return { fixed, unknown: productIds.filter((id) => !known.has(id)) };
}

/**
 * The user's cart, oldest line first, with each line's current name, price (its variant's), image,
 * category and option values.
 */
export async function getCart(db: Database, userId: string): Promise<CartLine[]> {
  const rows = await db
    .select({
      productId: cartItems.productId,
      variantId: cartItems.variantId,
      quantity: cartItems.quantity,
      addedAt: cartItems.addedAt,
      name: products.name,
      pricePaise: productVariants.pricePaise,
      image: products.image,
      variantImages: productVariants.images,
      category: products.category,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.productId), asc(cartItems.variantId));
  const options = await variantOptionsOf(
    db,
    rows.map((r) => r.variantId),
  );
  return rows.map(({ variantImages, ...r }) => ({
    ...r,
    image: variantImages[0]?.url ?? r.image,
    options: options.get(r.variantId) ?? [],
    addedAt: r.addedAt.toISOString(),
  }));
}

/**
 * The variant each line names: the one given when it is the product's (else UnknownVariantError),
 * the product's default variant when none is given.
 */
async function resolveVariants(
  db: Executor,
  lines: readonly { productId: string; variantId?: string | null }[],
): Promise<string[]> {
  const resolved = await variantsOf(db, lines);
  const bad = lines.filter((_, i) => resolved[i] === "gone" || resolved[i] === "foreign");
  if (bad.length > 0) throw new UnknownVariantError(bad.map((l) => l.variantId!));
  return resolved as string[];
}

/**
 * Each line's variant (none given: the product's default): "gone" for a variant id that doesn't
 * exist (deleted since), "foreign" for one of another product (no page of ours sends that).
 */
async function variantsOf(
  db: Executor,
  lines: readonly { productId: string; variantId?: string | null }[],
): Promise<Array<string | "gone" | "foreign">> {
  const given = lines.flatMap((l) => (l.variantId ? [l.variantId] : []));
  const owners = new Map<string, string>();
  if (given.length > 0) {
    const rows = await db
      .select({ id: productVariants.id, productId: productVariants.productId })
      .from(productVariants)
      .where(inArray(productVariants.id, given));
    for (const r of rows) owners.set(r.id, r.productId);
  }
  const defaults = await defaultVariantIds(
    db,
    lines.filter((l) => !l.variantId).map((l) => l.productId),
  );
  return lines.map((l) => {
    if (!l.variantId) return defaults.get(l.productId) ?? "gone";
    const owner = owners.get(l.variantId);
    if (owner === undefined) return "gone";
    return owner === l.productId ? l.variantId : "foreign";
  });
}

/**
 * Replaces the user's whole cart in one transaction (the write-back after a sign-in merge). A
 * variant listed twice (or a product's default given both ways) keeps its larger quantity; lines
 * already stored keep their addedAt. A line whose product or variant is gone (deleted since the
 * browser kept it) or isn't the user's to buy (another customer's custom part) is left out and
 * returned in `dropped`, in the order sent: the rest of a customer's cart must not be lost over
 * one stale line. A variant of another product is refused (UnknownVariantError): no page of ours
 * sends one.
 */
export async function setAllCartItems(
  db: Database,
  userId: string,
  lines: readonly CartLineInput[],
): Promise<{ dropped: CartLineInput[] }> {
  for (const line of lines) assertQuantity(line.quantity);
  const productIds = [...new Set(lines.map((l) => l.productId))];
  return db.transaction(async (tx) => {
    const { fixed, unknown } = await productsKnownTo(tx, userId, productIds, {
      dropUnsellableParts: true,
    });
    const gone = new Set(unknown);
    const variantIds = await variantsOf(tx, lines);
    const foreign = lines.filter((l, i) => !gone.has(l.productId) && variantIds[i] === "foreign");
    if (foreign.length > 0) throw new UnknownVariantError(foreign.map((l) => l.variantId!));
    const dropped: CartLineInput[] = [];
    const wanted = new Map<string, { productId: string; quantity: number }>();
    lines.forEach((line, i) => {
      const variantId = variantIds[i];
      if (gone.has(line.productId) || variantId === "gone" || variantId === "foreign") {
        dropped.push(line);
        return;
      }
      const quantity = fixed.get(line.productId) ?? line.quantity;
      if (quantity === 0) return;
      const current = wanted.get(variantId);
      wanted.set(variantId, {
        productId: line.productId,
        quantity: Math.max(current?.quantity ?? 0, quantity),
      });
    });
    const existing = await tx
      .select({ variantId: cartItems.variantId, addedAt: cartItems.addedAt })
      .from(cartItems)
      .where(eq(cartItems.userId, userId));
    const addedAt = new Map(existing.map((r) => [r.variantId, r.addedAt]));
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    if (wanted.size === 0) return { dropped };
    // New lines are a millisecond apart, so the cart keeps the order it was sent in.
    const now = Date.now();
    await tx.insert(cartItems).values(
      [...wanted].map(([variantId, line], i) => ({
        userId,
        productId: line.productId,
        variantId,
        quantity: line.quantity,
        addedAt: addedAt.get(variantId) ?? new Date(now + i),
      })),
    );
    return { dropped };
  });
}

/**
 * Sets one line's quantity (adding the line if needed); quantity 0 removes it. No variant given:
 * the product's default variant.
 */
export async function setCartItem(
  db: Database,
  userId: string,
  productId: string,
  quantity: number,
  variantId: string | null = null,
): Promise<void> {
  if (quantity === 0) return removeCartItem(db, userId, productId, variantId);
  assertQuantity(quantity);
  const fixed = await assertProductsExist(db, userId, [productId]);
  const [resolved] = await resolveVariants(db, [{ productId, variantId }]);
  const stored = fixed.get(productId) ?? quantity;
  await db
    .insert(cartItems)
    .values({ userId, productId, variantId: resolved, quantity: stored })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.variantId],
      set: { quantity: stored },
    });
}

/** Removes a line: the variant's, or every line of the product when no variant is given. */
export async function removeCartItem(
  db: Database,
  userId: string,
  productId: string,
  variantId: string | null = null,
): Promise<void> {
  await db
    .delete(cartItems)
    .where(
      and(
        eq(cartItems.userId, userId),
        eq(cartItems.productId, productId),
        variantId ? eq(cartItems.variantId, variantId) : undefined,
      ),
    );
}

export async function clearCart(db: Database, userId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}

/**
 * Takes an order's variants out of its customer's stored cart, inside the order's own
 * transaction: all lines for an order placed without the gateway (cash on delivery), the ordered
 * variants when an online payment succeeds (lines added since stay).
 */
export async function removeOrderedLines(
  tx: Pick<Database, "delete">,
  userId: string,
  variantIds: string[] | "all",
): Promise<void> {
  if (variantIds === "all") {
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    return;
  }
  if (variantIds.length === 0) return;
  await tx
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), inArray(cartItems.variantId, variantIds)));
}
