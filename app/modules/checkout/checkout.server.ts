import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, like, not, or } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { addresses, cartItems, orders, products, productVariants, user } from "~/db/schema.ts";
import { variantOptionsOf } from "~/modules/catalog/variants.server.ts";
import {
  DiscountUsedUpError,
  priceLines,
  priceLinesLocked,
  recordDiscountUses,
} from "~/modules/discounts/discounts.server.ts";
import { lockStock, takeStock } from "~/modules/inventory/inventory.server.ts";
import { createOrder, supersedeOpenOrders } from "~/modules/orders/lifecycle.server.ts";
import { checkQuotedLines } from "~/modules/quotes/quotes.server.ts";
import { getShopSettings, type ShopSettings } from "~/modules/settings/settings.server.ts";
import type { CourierRates } from "~/modules/shipping/courier-rates.server.ts";
import { type ShippingQuote, shippingFor } from "~/modules/shipping/rates.server.ts";
import { type CodVerdict, codFor, codRefusal, codText } from "~/rules/cash-on-delivery.ts";
import { deliveryText } from "~/rules/delivery.ts";
import type { AppliedDiscount, DiscountLine, PricedOrder } from "~/rules/discounts.ts";
import {
  checkoutText,
  nextReconcileDelay,
  ORDER_HOLD_SECONDS,
  REUSE_MARGIN_SECONDS,
  SHIPPING_METHOD,
} from "~/rules/orders.ts";
import { isPurchasable } from "~/rules/product-display.ts";
import type { AddressSnapshot, OrderedOption } from "~/rules/stored-shapes.ts";
import { lineName } from "~/rules/variants.ts";

/*
 * Placing an order (SPEC.md §4 "Checkout flow", §7 createOrder; DESIGN.md decisions 2, 6, 7). The
 * server is the authority: it reads the user's stored cart and the products, prices every line
 * itself, takes stock under row locks so the last unit sells once, and makes one order per
 * checkout attempt however many times the attempt is submitted.
 *
 * Locks are always taken in the same order (the user's row, then products by id) so concurrent
 * checkouts queue instead of deadlocking. A customer's second submission of the same attempt (a
 * double click, a second tab) waits on the user row and then finds the first one's order.
 */

export type CheckoutMethod = "gateway" | "cod";

export type PlaceOrderInput = {
  userId: string;
  addressId: string | null;
  method: CheckoutMethod;
  /** The total the customer was shown; a different server total refuses the order. */
  expectedTotalPaise?: number | null;
  /** The discount code the customer applied (the server checks it again and prices it itself). */
  couponCode?: string | null;
  /**
   * The checkout page's own token (one per page view). A cash-on-delivery order is placed once
   * per token, so a resubmitted form finds its order instead of placing another.
   */
  attemptToken?: string | null;
  /** The configured gateway's name, recorded as the order's provider. */
  provider: string;
  /** The courier account's rates, when the shop charges a courier's rate (decision 0019). */
  courierRates?: CourierRates;
  now?: Date;
};

export type PlacedOrder = {
  id: string;
  orderNumber: string;
  totalPaise: number;
  paymentMethod: string;
  status: string;
  paymentStatus: string;
  paymentTransactionId: string | null;
  paymentUrl: string | null;
  /** true when this submission found the order an earlier submission of the attempt made. */
  reused: boolean;
};

export type CheckoutErrorCode =
  | "cart-empty"
  | "no-address"
  | "address-not-available"
  | "unavailable"
  | "insufficient-stock"
  | "changed"
  | "cod-unavailable"
  | "online-minimum"
  | "discount"
  | "quote"
  | "unknown-pin";

/** The least an online payment can be: both gateways refuse less than ₹1 (100 paise). */
export const ONLINE_MINIMUM_PAISE = 100;

/** A checkout the shop refuses, with the title and description the customer sees. */
export class CheckoutError extends Error {
  override name = "CheckoutError";
  readonly code: CheckoutErrorCode;
  readonly title: string;
  readonly description: string;
  constructor(code: CheckoutErrorCode, title: string, description: string) {
    super(`${title}: ${description}`);
    this.code = code;
    this.title = title;
    this.description = description;
  }
}

export type CheckoutLine = {
  productId: string;
  /** The variant the line is (decision 0015). */
  variantId: string;
  /** Its option values ("Colour: Red"); empty for a product without options. */
  options: OrderedOption[];
  quantity: number;
  name: string;
  pricePaise: number;
  image: string | null;
  category: string;
  subcategory: string | null;
  /** A custom printed part (its price comes from the customer's quote). */
  custom: boolean;
  /** Active, priced and with enough stock for the quantity. */
  available: boolean;
  /** Units left when the shop tracks a count (0 when the product isn't for sale at all). */
  stockLeft: number | null;
};

/** The user's stored cart as checkout shows it: current prices and whether each line can be ordered. */
export async function checkoutLines(db: Database, userId: string): Promise<CheckoutLine[]> {
  const rows = await db
    .select({
      productId: cartItems.productId,
      variantId: cartItems.variantId,
      quantity: cartItems.quantity,
      name: products.name,
      pricePaise: productVariants.pricePaise,
      image: products.image,
      variantImages: productVariants.images,
      category: products.category,
      subcategory: products.subcategory,
      quoteId: products.quoteId,
      isActive: products.isActive,
      variantActive: productVariants.isActive,
      inStock: productVariants.inStock,
      stockCount: productVariants.stockCount,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(
      productVariants,
      and(
        eq(productVariants.id, cartItems.variantId),
        eq(productVariants.productId, cartItems.productId),
      ),
    )
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.productId), asc(cartItems.variantId));
  // Custom parts are never active products: their quotes say whether they sell.
  const quoted = await checkQuotedLines(db, userId, rows);
  const options = await variantOptionsOf(
    db,
    rows.map((r) => r.variantId),
  );
  return rows.map(
    ({ isActive, variantActive, inStock, stockCount, quoteId, variantImages, ...line }) => {
      const active = isActive && variantActive;
      return {
        ...line,
        image: variantImages[0]?.url ?? line.image,
        options: options.get(line.variantId) ?? [],
        custom: quoteId !== null,
        available:
          (quoted.custom.has(line.productId)
            ? quoted.sellable.has(line.productId)
            : isPurchasable({ isActive: active, inStock, stockCount })) &&
          line.pricePaise > 0 &&
          (stockCount === null || stockCount >= line.quantity),
        // An inactive or sold-out product is "Unavailable", not "Only N left".
        stockLeft: active && inStock ? stockCount : 0,
      };
    },
  );
}

/**
 * What the shop's settings say about an order's figures, with the shipping the server rated for
 * the delivery PIN (decision 0014): the free-shipping threshold and free-shipping discounts still
 * take it to ₹0.
 */
const pricingSettings = (s: ShopSettings, shippingPaise: number) => ({
  shippingFeePaise: shippingPaise,
  taxRateBasisPoints: s.taxRateBasisPoints,
  freeShippingThresholdPaise: s.freeShippingThresholdPaise,
});

/**
 * Cash on delivery for an order to a PIN: the shop's switch, the PIN's zone's limit and fee
 * (app/rules/cash-on-delivery.ts), weighed on the order's total before the fee.
 */
const codOf = (
  s: ShopSettings,
  shipping: Exclude<ShippingQuote, { kind: "unknown-pin" }>,
  totalPaise: number,
): CodVerdict =>
  codFor(
    { enabled: s.codEnabled, maxOrderPaise: s.codMaxOrderPaise },
    s.shippingRates,
    shipping.kind === "rated" ? shipping.zone : null,
    totalPaise,
  );

/** Checkout's figures for one delivery PIN: the rate and the priced order, or the PIN refused. */
export type CheckoutQuote =
  | {
      kind: "priced";
      shipping: Exclude<ShippingQuote, { kind: "unknown-pin" }>;
      priced: PricedOrder;
      /** Cash on delivery to this PIN for this order: its fee, or why not. */
      cod: CodVerdict;
      /**
       * Paid on delivery, when the courier that collects cash charges another rate than the one
       * for a prepaid parcel (decision 0019): that shipping and order.
       */
      codPriced?: {
        shipping: Exclude<ShippingQuote, { kind: "unknown-pin" }>;
        priced: PricedOrder;
      };
    }
  | { kind: "unknown-pin" };

/** A line as the discount rules see it (the server's price and quantity). */
const discountLine = (l: {
  productId: string;
  category: string;
  subcategory: string | null;
  custom: boolean;
  pricePaise: number;
  quantity: number;
}): DiscountLine => ({
  productId: l.productId,
  category: l.category,
  subcategory: l.subcategory,
  custom: l.custom,
  unitPricePaise: l.pricePaise,
  quantity: l.quantity,
});

/**
 * The checkout page's lines and figures: the lines that can be ordered, priced with the shipping
 * to each of the customer's PIN codes (the rate the order will be charged), tax and discounts
 * (the best automatic offer and the customer's code, if any).
 */
export async function checkoutSummary(
  db: Database,
  userId: string,
  code: string | null,
  pins: readonly string[],
  now = new Date(),
  courierRates?: CourierRates,
): Promise<{
  lines: CheckoutLine[];
  settings: ShopSettings;
  /** Per PIN code. */
  quotes: Record<string, CheckoutQuote>;
}> {
  const [lines, settings] = await Promise.all([checkoutLines(db, userId), getShopSettings(db)]);
  const orderable = lines.filter((l) => l.available);
  const quotes: Record<string, CheckoutQuote> = {};
  const pricedByRate = new Map<number, Promise<PricedOrder>>();
  const priceAt = (paise: number) => {
    let priced = pricedByRate.get(paise);
    if (!priced) {
      priced = priceLines(db, {
        lines: orderable.map(discountLine),
        settings: pricingSettings(settings, paise),
        code,
        userId,
        now,
      });
      pricedByRate.set(paise, priced);
    }
    return priced;
  };
  for (const pin of new Set(pins)) {
    const courier = courierRates ? { rates: courierRates, cod: false } : undefined;
    const shipping = await shippingFor(db, settings, pin, orderable, courier);
    if (shipping.kind === "unknown-pin") {
      quotes[pin] = { kind: "unknown-pin" };
      continue;
    }
    const order = await priceAt(shipping.paise);
    // Paid on delivery the courier must collect cash: its rate may be another one.
    const codShipping =
      courierRates && settings.codEnabled && settings.courierRates !== "table"
        ? await shippingFor(db, settings, pin, orderable, { rates: courierRates, cod: true })
        : shipping;
    const codPriced =
      codShipping.kind !== "unknown-pin" && codShipping.paise !== shipping.paise
        ? { shipping: codShipping, priced: await priceAt(codShipping.paise) }
        : undefined;
    quotes[pin] = {
      kind: "priced",
      shipping,
      priced: order,
      cod: codPriced
        ? codOf(settings, codPriced.shipping, codPriced.priced.totalPaise)
        : codOf(settings, shipping, order.totalPaise),
      ...(codPriced ? { codPriced } : {}),
    };
  }
  return { lines, settings, quotes };
}

export async function placeOrder(db: Database, input: PlaceOrderInput): Promise<PlacedOrder> {
  const now = input.now ?? new Date();
  const settings = await getShopSettings(db);
  if (input.courierRates && settings.courierRates !== "table") {
    await askCourierFirst(db, input, settings);
  }
  // Two customers' checkouts that release and take the same products can deadlock on PostgreSQL;
  // the database aborts one of them, which then simply runs again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await placeOrderOnce(db, input, settings, now);
    } catch (error) {
      if (attempt >= 3 || !isRetryable(error)) throw error;
    }
  }
}

/**
 * Asks the courier for this cart and address before the order's transaction (decision 0019): its
 * answer is cached, so the same question inside the transaction is answered at once instead of
 * keeping the customer's and the products' rows locked while a slow carrier thinks (up to its
 * time limit; on PGlite, every request of the shop would wait). The transaction still decides.
 */
async function askCourierFirst(
  db: Database,
  input: PlaceOrderInput,
  settings: ShopSettings,
): Promise<void> {
  if (!input.addressId || !input.courierRates) return;
  const [address] = await db
    .select({ postalCode: addresses.postalCode })
    .from(addresses)
    .where(and(eq(addresses.id, input.addressId), eq(addresses.userId, input.userId)));
  if (!address) return;
  const lines = await db
    .select({ productId: cartItems.productId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.userId, input.userId));
  if (lines.length === 0) return;
  await shippingFor(db, settings, address.postalCode, lines, {
    rates: input.courierRates,
    cod: input.method === "cod",
  });
}

async function placeOrderOnce(
  db: Database,
  input: PlaceOrderInput,
  settings: ShopSettings,
  now: Date,
): Promise<PlacedOrder> {
  return db.transaction(async (tx) => {
    // One checkout at a time per customer.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, input.userId)).for("update");

    // A cash-on-delivery form sent again (its order already emptied the cart) finds its order.
    if (input.method === "cod" && input.attemptToken) {
      const [placed] = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.userId, input.userId),
            eq(orders.idempotencyKey, `cod:${input.attemptToken.slice(0, 64)}`),
          ),
        );
      if (placed) return { ...summary(placed), reused: true };
    }

    // The stored cart: one line per variant, priced from the variant. A line whose variant isn't
    // its product's (written past the cart module) is refused below.
    const cart = await tx
      .select({
        productId: cartItems.productId,
        variantId: cartItems.variantId,
        variantProductId: productVariants.productId,
        quantity: cartItems.quantity,
        name: products.name,
        pricePaise: productVariants.pricePaise,
        image: products.image,
        variantImages: productVariants.images,
        category: products.category,
        subcategory: products.subcategory,
        quoteId: products.quoteId,
        productActive: products.isActive,
        variantActive: productVariants.isActive,
      })
      .from(cartItems)
      .innerJoin(products, eq(products.id, cartItems.productId))
      .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
      .where(eq(cartItems.userId, input.userId))
      .orderBy(asc(cartItems.productId), asc(cartItems.variantId));
    if (cart.some((l) => l.variantProductId !== l.productId)) {
      throw new CheckoutError(
        "unavailable",
        "Item unavailable",
        "An item in your cart is no longer available. Remove it from your cart to continue.",
      );
    }
    // The option values don't change with stock: read before the locks, which queue checkouts.
    const optionsOf = await variantOptionsOf(
      tx,
      cart.map((l) => l.variantId),
    );
    // The products' rows, then their variants' (inventory's lock order): the last unit sells once.
    const locked = await lockStock(
      tx,
      cart.map((l) => l.productId),
      cart.map((l) => l.variantId),
    );
    const lines = cart.map(
      ({ variantProductId, productActive, variantActive, variantImages, ...l }) => {
        const stock = locked.get(l.variantId);
        return {
          ...l,
          image: variantImages[0]?.url ?? l.image,
          options: optionsOf.get(l.variantId) ?? [],
          variantActive,
          isActive: productActive && (stock?.isActive ?? variantActive),
          inStock: stock?.inStock ?? false,
          stockCount: stock ? stock.stockCount : 0,
        };
      },
    );
    if (lines.length === 0) {
      throw new CheckoutError(
        "cart-empty",
        checkoutText.cartEmpty,
        "Add something to your cart first.",
      );
    }

    if (!input.addressId) {
      throw new CheckoutError(
        "no-address",
        checkoutText.noAddressSelected,
        checkoutText.noAddressSelectedDescription,
      );
    }
    const [address] = await tx
      .select()
      .from(addresses)
      .where(
        and(
          eq(addresses.id, input.addressId),
          eq(addresses.userId, input.userId),
          not(addresses.isDeleted),
        ),
      );
    if (!address) {
      throw new CheckoutError(
        "address-not-available",
        checkoutText.addressNotAvailable,
        "Please choose another address or add a new one.",
      );
    }

    // The shipping is the server's: the delivery PIN's zone and the cart's chargeable weight.
    // With a courier account the shop may charge its courier's rate (decision 0019); a COD order
    // goes with a courier that collects cash. The carrier's answer is cached, or bounded in time.
    const shipping = await shippingFor(
      tx,
      settings,
      address.postalCode,
      lines,
      input.courierRates ? { rates: input.courierRates, cod: input.method === "cod" } : undefined,
    );
    if (shipping.kind === "unknown-pin") {
      throw new CheckoutError(
        "unknown-pin",
        deliveryText.unknownPin,
        `Please choose another address, or add one with a PIN code other than ${address.postalCode}.`,
      );
    }

    const couponCode = input.couponCode?.trim().toUpperCase() || null;

    // Gateway: the same priced cart, address, code and charges is the same attempt (two tabs, a
    // double click or a return from the payment page find its order). Cash on delivery clears the cart
    // when placed, so its attempt is the page's token.
    const cartKey = createHash("sha256")
      .update(
        JSON.stringify([
          lines.map((l) => [l.productId, l.variantId, l.quantity, l.pricePaise]),
          address.id,
          input.method,
          couponCode,
          [shipping.paise, settings.taxRateBasisPoints, settings.freeShippingThresholdPaise],
        ]),
      )
      .digest("base64url");
    const attemptKey =
      input.method === "cod" ? `cod:${input.attemptToken?.slice(0, 64) || randomUUID()}` : cartKey;
    const earlier = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, input.userId),
          or(eq(orders.idempotencyKey, attemptKey), like(orders.idempotencyKey, `${attemptKey}:%`)),
        ),
      );
    const reusableUntil = new Date(now.getTime() + REUSE_MARGIN_SECONDS * 1000);
    const open = earlier.find(
      (o) =>
        o.status === "pending" &&
        o.paymentStatus === "unpaid" &&
        o.paymentMethod !== "cod" &&
        (!o.paymentExpiresAt || o.paymentExpiresAt > reusableUntil),
    );
    if (open) return { ...summary(open), reused: true };
    const placedCod = earlier.find((o) => o.paymentMethod === "cod");
    if (placedCod) return { ...summary(placedCod), reused: true };
    const idempotencyKey =
      earlier.length === 0 ? attemptKey : `${attemptKey}:${earlier.length + 1}`;

    // A new attempt replaces the customer's earlier unpaid ones: their units go back on the shelf
    // first, so a corrected cart isn't refused for stock the customer is holding themselves.
    const replaced = await supersedeOpenOrders(tx, input.userId, now);
    if (replaced.length > 0) {
      const fresh = await lockStock(
        tx,
        [],
        lines.map((l) => l.variantId),
      );
      for (const line of lines) {
        const stock = fresh.get(line.variantId);
        if (stock) Object.assign(line, { inStock: stock.inStock, stockCount: stock.stockCount });
      }
    }

    // Custom parts: sold only on their owner's valid, unexpired quote at its verified price.
    const quoted = await checkQuotedLines(tx, input.userId, lines, now);
    if (quoted.problem) {
      throw new CheckoutError("quote", "Custom part unavailable", quoted.problem);
    }
    for (const line of lines) {
      if (quoted.sellable.has(line.productId)) line.isActive = true;
      const name = lineName(line.name, line.options);
      // A sold-out variant of a product with options is named so; a product without options
      // keeps its own words (SPEC.md).
      if (
        line.options.length > 0 &&
        line.isActive &&
        line.pricePaise > 0 &&
        (!line.inStock || line.stockCount === 0)
      ) {
        throw new CheckoutError(
          "unavailable",
          "Sold out",
          `“${name}” is sold out. Remove it from your cart to continue.`,
        );
      }
      if (!isPurchasable(line) || line.pricePaise <= 0) {
        throw new CheckoutError(
          "unavailable",
          "Item unavailable",
          `“${name}” is no longer available. Remove it from your cart to continue.`,
        );
      }
      if (line.stockCount !== null && line.stockCount < line.quantity) {
        throw new CheckoutError(
          "insufficient-stock",
          "Not enough stock",
          line.stockCount === 1
            ? `Only 1 “${name}” is left. Lower the quantity to continue.`
            : `Only ${line.stockCount} “${name}” are left. Lower the quantity to continue.`,
        );
      }
    }
    // The discounts, locked now that replaced orders have given their uses back: the last use of
    // a code goes to exactly one order.
    const totals = await priceLinesLocked(tx, {
      lines: lines.map((l) => discountLine({ ...l, custom: l.quoteId !== null })),
      settings: pricingSettings(settings, shipping.paise),
      code: couponCode,
      userId: input.userId,
      now,
    });
    if (couponCode && totals.codeRefusal) {
      throw new CheckoutError("discount", "Coupon not applied", totals.codeRefusal.message);
    }
    // Cash on delivery: the PIN's zone and the order's total decide, and its fee is the zone's
    // (never a figure from the form).
    const cod = input.method === "cod";
    const codVerdict = cod ? codOf(settings, shipping, totals.totalPaise) : null;
    const codFeePaise = codVerdict?.kind === "available" ? codVerdict.feePaise : 0;
    const totalPaise = totals.totalPaise + codFeePaise;
    if (
      input.expectedTotalPaise !== undefined &&
      input.expectedTotalPaise !== null &&
      input.expectedTotalPaise !== totalPaise
    ) {
      throw new CheckoutError(
        "changed",
        "Your cart has changed",
        "Prices or items changed since you opened checkout. Please review your order and place it again.",
      );
    }
    if (codVerdict && codVerdict.kind !== "available") {
      throw new CheckoutError(
        "cod-unavailable",
        codText.title,
        codRefusal(codVerdict, address.postalCode) ?? codText.off,
      );
    }

    // The gateways take ₹1 or more: an order discounted below that could never be paid, yet
    // would hold its stock and its discount uses until it expired.
    if (input.method !== "cod" && totals.totalPaise < ONLINE_MINIMUM_PAISE) {
      throw new CheckoutError(
        "online-minimum",
        "Online payment unavailable",
        "Online payments start at ₹1.00. Please choose Cash on Delivery for this order.",
      );
    }

    await takeStock(tx, lines, now);

    const snapshot: AddressSnapshot = {
      addressId: address.id,
      label: address.label,
      name: address.name,
      line1: address.line1,
      line2: null,
      city: address.city,
      state: address.state,
      postalCode: address.postalCode,
      country: address.country,
      phone: address.phone,
    };
    const values = {
      userId: input.userId,
      status: cod ? ("processing" as const) : ("pending" as const),
      subtotalPaise: totals.subtotalPaise,
      shippingPaise: totals.shippingPaise,
      codFeePaise,
      taxPaise: totals.taxPaise,
      discountPaise: totals.discountPaise,
      totalPaise,
      appliedDiscounts: totals.applied,
      taxRateBasisPoints: settings.taxRateBasisPoints,
      currency: "INR",
      shippingAddress: snapshot,
      billingAddress: snapshot,
      shippingMethod: {
        ...SHIPPING_METHOD,
        costPaise: totals.shippingPaise,
        ...(shipping.kind === "rated"
          ? { zone: shipping.zone, chargeableGrams: shipping.grams }
          : {}),
        ...(shipping.kind === "rated" && shipping.courier
          ? { courierId: shipping.courier.id, courierName: shipping.courier.name }
          : {}),
      },
      paymentMethod: cod ? "cod" : "gateway",
      paymentStatus: "unpaid" as const,
      paymentProvider: cod ? "cod" : input.provider,
      idempotencyKey,
      paymentExpiresAt: cod ? null : new Date(now.getTime() + ORDER_HOLD_SECONDS * 1000),
      nextReconcileAt: cod ? null : new Date(now.getTime() + (nextReconcileDelay(0) ?? 25) * 1000),
      fulfilledAt: cod ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    // Cash on delivery goes ahead at once: the orders module empties the cart, orders the quotes
    // and queues the confirmation (SPEC.md §2 Checkout).
    const order = await createOrder(
      tx,
      values,
      lines.map((l, i) => ({
        productId: l.productId,
        variantId: l.variantId,
        options: l.options,
        name: l.name,
        imageUrl: l.image,
        quantity: l.quantity,
        unitPricePaise: l.pricePaise,
        discountPaise: totals.lineDiscounts[i] ?? 0,
        currency: "INR",
      })),
      { now, replaced },
    );
    try {
      await recordDiscountUses(tx, order, totals.applied, now);
    } catch (error) {
      // Another checkout took its last use a moment ago: the order (rolled back) isn't placed.
      if (error instanceof DiscountUsedUpError) throw discountUsedUp(error.discount);
      throw error;
    }
    return { ...summary(order), reused: false };
  });
}

/** The customer's words for a discount that ran out while their order was being placed. */
export function discountUsedUp(d: AppliedDiscount): CheckoutError {
  return d.code
    ? new CheckoutError(
        "discount",
        "Coupon not applied",
        `“${d.code}” has been fully used. Try another code.`,
      )
    : new CheckoutError(
        "discount",
        "Offer ended",
        `“${d.name}” has just been used up, so your total has changed. Please review your order and place it again.`,
      );
}

function summary(o: typeof orders.$inferSelect): Omit<PlacedOrder, "reused"> {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    totalPaise: o.totalPaise,
    paymentMethod: o.paymentMethod,
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentTransactionId: o.paymentTransactionId,
    paymentUrl: o.paymentUrl,
  };
}

function isRetryable(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: string }).code;
    if (code === "40P01" || code === "40001") return true;
  }
  return false;
}
