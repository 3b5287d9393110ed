import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import {
  cartItems,
  orderItems,
  orders,
  products,
  productVariants,
  type QuoteStatus,
  quoteSettings,
  quotes,
  user,
} from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { enqueueJob, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import type { CartLine } from "~/rules/cart.ts";
import { detectFormat } from "~/rules/model3d/index.ts";
import { UNSUPPORTED_FILE_MESSAGE } from "~/rules/model3d/messages.ts";
import { partFileName, type SplitKind } from "~/rules/model3d/parts.ts";
import { ModelError } from "~/rules/model3d/types.ts";
import { paiseToRupeesText } from "~/rules/money.ts";
import {
  estimatedPrintMinutes,
  FACTOR_SAMPLES,
  type PrintSchedule,
  type PrintSpeed,
  printDatesText,
  printerFactors,
  printReadyBy,
  printTimeFactor,
  scheduleToday,
} from "~/rules/print-dates.ts";
import type { QuoteSummary } from "~/rules/quote-pricing.ts";
import {
  CUSTOM_PART_CATEGORY,
  customPartName,
  defaultQuoteRates,
  pricedUnit,
  priceQuote,
  type QuoteBreakdown,
  type QuoteOptions,
  type QuoteRates,
  quoteOptionsSchema,
  quoteProblemText,
  quoteRatesSchema,
  quoteText,
  type SlicedEstimate,
  staffFindings,
} from "~/rules/quote-pricing.ts";
import { customPartParcel } from "~/rules/shipping-rates.ts";
import type { StoredSlice } from "~/rules/stored-shapes.ts";
import { quoteOfferEmail, quoteReplyEmail } from "./emails.ts";
import { measureModel } from "./measure.server.ts";

/*
 * Custom-print quotes (issue: instant quotes from the customer's own model file). The server is
 * the authority: it parses and measures every uploaded file itself, prices with the rates it
 * stores, and sells a quote as a hidden "custom part" product that only its owner can put in a
 * cart (docs/decisions/0007-custom-quotes.md). The browser's own analysis is only a preview.
 */

type Executor = Database | Tx;

/** A refusal the customer (or admin) should read: `status` is the HTTP status to answer with. */
export class QuoteError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = "QuoteError";
    this.status = status;
  }
}

const DAY_MS = 86_400_000;
/** The largest offer staff can make (order amounts are 32-bit paise columns). */
const MAX_OFFER_TOTAL_PAISE = 500_000_000;

// ---------------------------------------------------------------------------------------------
// Rates

/** The stored rates, or the defaults until an admin saves their own. */
export async function getQuoteRates(db: Executor): Promise<QuoteRates> {
  const [row] = await db.select().from(quoteSettings).where(eq(quoteSettings.id, 1));
  const parsed = quoteRatesSchema.safeParse(row?.rates);
  return parsed.success ? parsed.data : defaultQuoteRates;
}

export async function saveQuoteRates(db: Database, actor: Viewer, rates: QuoteRates) {
  const valid = quoteRatesSchema.parse(rates);
  await db.transaction(async (tx) => {
    await tx
      .insert(quoteSettings)
      .values({ id: 1, rates: valid })
      .onConflictDoUpdate({
        target: quoteSettings.id,
        set: { rates: valid, updatedAt: new Date() },
      });
    await recordAudit(tx, actor, {
      action: "quote-settings.update",
      targetType: "quote-settings",
      summary: "Updated the custom print rates",
      details: { rates: valid },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Upload

const contentTypes = {
  stl: "model/stl",
  obj: "model/obj",
  "3mf": "model/3mf",
  ply: "application/octet-stream",
} as const;

/**
 * Reads, measures and keeps an uploaded model for its owner: one quote per part (a 3MF's objects,
 * or each body when the customer split it: app/rules/model3d/parts.ts), in the file's part order.
 * The file goes once to the private store and every part's quote points at it; a file that can't
 * be read is refused with the parser's message and nothing is kept.
 */
export async function createQuoteFromUpload(
  deps: { db: Database; files: FileStorage },
  userId: string,
  fileName: string,
  bytes: Uint8Array,
  split: SplitKind | null = null,
): Promise<QuoteSummary[]> {
  const name = cleanFileName(fileName);
  const format = detectFormat(name);
  if (!format) throw new ModelError(UNSUPPORTED_FILE_MESSAGE);
  const rates = await getQuoteRates(deps.db);
  // Off the event loop; the bytes come back from the worker with the measurements.
  const { geometries, bytes: file } = await measureModel(bytes, name, rates.printers, split);
  const rows = geometries.map((geometry) => ({
    id: randomUUID(),
    userId,
    fileName: cleanFileName(partFileName(name, geometry.part ?? null)),
    fileBytes: file.byteLength,
    geometry,
  }));
  const storagePath = `quotes/${rows[0].id}.${format}`;
  await deps.files.put(storagePath, file, contentTypes[format]);
  try {
    const saved = await deps.db
      .insert(quotes)
      .values(rows.map((r) => ({ ...r, storagePath })))
      .returning();
    const order = new Map<string, number>(rows.map((r, i) => [r.id, i]));
    saved.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return saved.map((row) => summarise(row, null));
  } catch (error) {
    await deps.files.delete(storagePath).catch(() => {});
    throw error;
  }
}

/** A file name as shown back to people: no folders, no control characters, at most 120 chars. */
export function cleanFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  const clean = base.replace(/[\u0000-\u001f\u007f<>"]/g, "").trim();
  if (clean.length <= 120) return clean || "model";
  const dot = clean.lastIndexOf(".");
  const ext = dot > 0 ? clean.slice(dot) : "";
  return clean.slice(0, 120 - ext.length) + ext;
}

function summarise(row: typeof quotes.$inferSelect, productId: string | null): QuoteSummary {
  const options = quoteOptionsSchema.safeParse(row.options);
  return {
    id: row.id,
    fileName: row.fileName,
    fileBytes: row.fileBytes,
    geometry: row.geometry,
    status: row.status,
    options: options.success ? options.data : null,
    unitPricePaise: row.unitPricePaise,
    quantity: row.quantity,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    customerNote: row.customerNote,
    staffReply: row.staffReply,
    staffPriced: row.staffPriced,
    productId,
    orderId: row.orderId,
    createdAt: row.createdAt.toISOString(),
    printMinutes: row.printMinutes,
    readyBy: row.readyBy,
    priceNote: row.priceNote,
    priceNoteBy: priceNoteBy(row),
    actualPrintMinutes: row.actualPrintMinutes,
    printedAt: row.printedAt?.toISOString() ?? null,
    printedOn: row.printedOn,
  };
}

/** The customer's quotes, newest first. */
export async function listMyQuotes(db: Database, userId: string, limit = 50) {
  const rows = await db
    .select({ quote: quotes, productId: products.id })
    .from(quotes)
    .leftJoin(products, eq(products.quoteId, quotes.id))
    .where(eq(quotes.userId, userId))
    .orderBy(desc(quotes.createdAt), desc(quotes.id))
    .limit(limit);
  return rows.map((r) => summarise(r.quote, r.productId));
}

/**
 * Whether the quote's part is in an order still waiting for its payment. Its specification and
 * price are frozen until that order is paid (then it's ordered) or cancelled: what staff print is
 * what was paid for.
 */
export async function inOpenOrder(tx: Tx, quoteId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: orders.id })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(products.quoteId, quoteId),
        eq(orders.status, "pending"),
        inArray(orders.paymentStatus, ["unpaid", "failed"]),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

const inOrderText =
  "This part is in an order waiting for payment. Complete that payment, or wait for it to expire, before changing the part.";

type QuoteRow = typeof quotes.$inferSelect;

/**
 * Locks custom parts in the one order every transaction takes (decision 0020, amended): first
 * their product rows, by id (inventory's and checkout's order), then their quotes, by id. A path
 * that locked a quote and then its product (adding to the cart did) could deadlock on PostgreSQL
 * against one that locks the product and then the quote (the slicer's result, checkout). Returns
 * the quotes found, by id.
 */
export async function lockParts(tx: Tx, quoteIds: readonly string[]) {
  const ids = [...new Set(quoteIds)];
  const locked = new Map<string, QuoteRow>();
  if (ids.length === 0) return locked;
  await tx
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.quoteId, ids))
    .orderBy(asc(products.id))
    .for("update");
  const rows = await tx
    .select()
    .from(quotes)
    .where(inArray(quotes.id, ids))
    .orderBy(asc(quotes.id))
    .for("update");
  for (const row of rows) locked.set(row.id, row);
  return locked;
}

async function lockOwnQuote(tx: Tx, userId: string, quoteId: string) {
  const row = (await lockParts(tx, [quoteId])).get(quoteId);
  if (!row || row.userId !== userId) throw new QuoteError(quoteText.notFound, 404);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Into the cart

export type AddedToCart = {
  line: Omit<CartLine, "addedAt">;
  breakdown: QuoteBreakdown | null;
  quoteId: string;
  speed: PrintSpeed;
  /** Estimated minutes of printing for every piece. */
  printMinutes: number;
  /** The day the part is ready to hand over (India), once promised. */
  readyBy: string | null;
};

/**
 * Prices the customer's options with the current rates and puts the part in their stored cart
 * (a new price replaces the part's earlier one). Refused when the model can't be printed as
 * chosen; the price is held for the rates' `holdDays`.
 */
export async function addQuoteToCart(
  db: Database,
  userId: string,
  quoteId: string,
  options: QuoteOptions,
  now = new Date(),
  /** Slice the part in the job queue once priced (a slicer is installed: decision 0020). */
  slicing = false,
): Promise<AddedToCart> {
  return db.transaction(async (tx) => {
    const added = await addOneToCart(tx, userId, quoteId, options, now, slicing);
    const [dated] = await promiseDates(tx, [added], now);
    return dated;
  });
}

/** Most parts one project puts in the cart at once. */
export const MAX_PROJECT_PARTS = 50;

/**
 * A project of several parts into the cart in one step: each part priced by the server from its
 * own quote and options, exactly as addQuoteToCart does one; all of them or none (the first part
 * refused says why, with its file's name).
 */
export async function addProjectToCart(
  db: Database,
  userId: string,
  parts: Array<{ quoteId: string; options: QuoteOptions }>,
  now = new Date(),
  /** Slice each part in the job queue once priced (decision 0020). */
  slicing = false,
): Promise<AddedToCart[]> {
  if (parts.length === 0 || parts.length > MAX_PROJECT_PARTS) {
    throw new QuoteError(`A project holds 1 to ${MAX_PROJECT_PARTS} parts.`);
  }
  if (new Set(parts.map((p) => p.quoteId)).size !== parts.length) {
    throw new QuoteError("Each part can be in the project only once.");
  }
  return db.transaction(async (tx) => {
    // All the parts' rows at once, in the one lock order (each part's own lock below is then held).
    await lockParts(
      tx,
      parts.map((p) => p.quoteId),
    );
    const added: AddedToCart[] = [];
    for (const part of parts) {
      try {
        added.push(await addOneToCart(tx, userId, part.quoteId, part.options, now, slicing));
      } catch (error) {
        if (!(error instanceof QuoteError) || error.status === 404) throw error;
        const [row] = await tx
          .select({ fileName: quotes.fileName })
          .from(quotes)
          .where(eq(quotes.id, part.quoteId));
        throw new QuoteError(`${row?.fileName ?? "A part"}: ${error.message}`, error.status);
      }
    }
    return promiseDates(tx, added, now);
  });
}

async function addOneToCart(
  tx: Tx,
  userId: string,
  quoteId: string,
  options: QuoteOptions,
  now: Date,
  slicing: boolean,
): Promise<AddedToCart> {
  const quote = await lockOwnQuote(tx, userId, quoteId);
  if (quote.status === "ordered") throw new QuoteError("This part has already been ordered.", 409);
  const offerExpired = quote.status === "offered" && (!quote.expiresAt || quote.expiresAt <= now);
  if (quote.status === "review_requested" || (quote.status === "offered" && !offerExpired)) {
    throw new QuoteError("This quote is with our team. Please wait for their reply.", 409);
  }
  if (await inOpenOrder(tx, quote.id)) throw new QuoteError(inOrderText, 409);
  const rates = await getQuoteRates(tx);
  const { breakdown, problems } = priceQuote(quote.geometry, options, rates);
  if (problems.length > 0) throw new QuoteError(quoteProblemText[problems[0]]);
  // Kept as priced: a 3MF's own unit wins over whatever the form said.
  const priced = { ...options, unit: breakdown.unit };
  const material = rates.materials.find((m) => m.id === options.materialId)!;
  const speed = breakdown.speed;
  const name = customPartName(quote.fileName, material.name, options.colour, speed);
  const printMinutes = estimatedPrintMinutes(breakdown.printHours, options.quantity);
  const productId = await upsertPartProduct(
    tx,
    quote.id,
    name,
    breakdown.unitPricePaise,
    now,
    customPartParcel(breakdown.grams, breakdown.size),
  );
  await putInCart(tx, userId, productId, options.quantity);
  // The slicer's figures come later, from the job queue; until then the instant ones stand.
  const slice: StoredSlice | null = slicing
    ? {
        key: randomUUID(),
        status: "queued",
        instant: {
          grams: breakdown.grams,
          supportGrams: breakdown.supportGrams,
          printMinutes: breakdown.printHours * 60,
          unitPricePaise: breakdown.unitPricePaise,
        },
      }
    : null;
  if (slice) await enqueueJob(tx, "slice-quote", { quoteId: quote.id, key: slice.key });
  await tx
    .update(quotes)
    .set({
      status: "in_cart",
      staffPriced: false,
      priceNote: null,
      slice,
      options: { ...priced, speed },
      rates,
      unitPricePaise: breakdown.unitPricePaise,
      quantity: options.quantity,
      printMinutes,
      expiresAt: new Date(now.getTime() + rates.holdDays * DAY_MS),
      updatedAt: now,
    })
    .where(eq(quotes.id, quote.id));
  return {
    line: cartLine(productId, name, breakdown.unitPricePaise, options.quantity),
    breakdown,
    quoteId: quote.id,
    speed,
    printMinutes,
    readyBy: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Print dates (docs/decisions/0017-print-dates.md)

/**
 * What a ready-by date depends on today: the shop's holidays, the printers' capacity and minimum
 * lead (quote rates), the estimated minutes of custom parts in paid orders not yet printed
 * (leaving out `exceptOrder`'s own), and the factor learned from recorded print times.
 */
export async function printSchedule(
  db: Executor,
  now = new Date(),
  options: { rates?: QuoteRates; exceptOrder?: string } = {},
): Promise<PrintSchedule> {
  const rates = options.rates ?? (await getQuoteRates(db));
  const settings = await getShopSettings(db);
  const [queued] = await db
    .select({ minutes: sql<number>`coalesce(sum(${quotes.printMinutes}), 0)::int` })
    .from(quotes)
    .innerJoin(orders, eq(orders.id, quotes.orderId))
    .where(
      and(
        eq(quotes.status, "ordered"),
        isNull(quotes.printedAt),
        eq(orders.status, "processing"),
        options.exceptOrder ? ne(orders.id, options.exceptOrder) : undefined,
      ),
    );
  const recorded = and(isNotNull(quotes.actualPrintMinutes), isNotNull(quotes.printMinutes));
  const samples = await db
    .select({ estimatedMinutes: quotes.printMinutes, actualMinutes: quotes.actualPrintMinutes })
    .from(quotes)
    .where(recorded)
    .orderBy(desc(quotes.printedAt), desc(quotes.id))
    .limit(FACTOR_SAMPLES);
  const factor = printTimeFactor(samples.map(sample));
  // Each printer's latest recorded prints (at most FACTOR_SAMPLES of each), in one query.
  const latest = db
    .select({
      printer: sql<string>`${quotes.printedOn}`.as("printer"),
      estimatedMinutes: sql<number>`${quotes.printMinutes}`.as("estimated_minutes"),
      actualMinutes: sql<number>`${quotes.actualPrintMinutes}`.as("actual_minutes"),
      rank: sql<number>`row_number() over (partition by ${quotes.printedOn} order by ${quotes.printedAt} desc, ${quotes.id} desc)`.as(
        "rank",
      ),
    })
    .from(quotes)
    .where(and(recorded, isNotNull(quotes.printedOn)))
    .as("latest");
  const perPrinter = await db
    .select({
      printer: latest.printer,
      estimatedMinutes: latest.estimatedMinutes,
      actualMinutes: latest.actualMinutes,
    })
    .from(latest)
    .where(sql`${latest.rank} <= ${FACTOR_SAMPLES}`)
    .orderBy(latest.printer, latest.rank);
  const byPrinter = new Map<string, Array<{ estimatedMinutes: number; actualMinutes: number }>>();
  for (const row of perPrinter) {
    const list = byPrinter.get(row.printer) ?? [];
    list.push(sample(row));
    byPrinter.set(row.printer, list);
  }
  return {
    today: scheduleToday(now),
    holidays: settings.holidays,
    printers: printerFactors(rates.printers, byPrinter, factor),
    printHoursPerDay: rates.printHoursPerDay,
    minLeadDays: rates.minLeadDays,
    queuedMinutes: queued?.minutes ?? 0,
    factor,
  };
}

const sample = (s: { estimatedMinutes: number | null; actualMinutes: number | null }) => ({
  estimatedMinutes: Number(s.estimatedMinutes ?? 0),
  actualMinutes: Number(s.actualMinutes ?? 0),
});

/**
 * The ready-by date of parts put in the cart (or paid) together: the parts of one speed are
 * printed together, so each gets the date of all of that speed's minutes; Standard behind the
 * queue, Express ahead of it. Stored on each quote.
 */
async function promiseDates(
  tx: Tx,
  parts: AddedToCart[],
  now: Date,
  exceptOrder?: string,
): Promise<AddedToCart[]> {
  if (parts.length === 0) return parts;
  const schedule = await printSchedule(tx, now, { exceptOrder });
  const minutes = { standard: 0, express: 0 };
  for (const p of parts) minutes[p.speed] += p.printMinutes;
  const out: AddedToCart[] = [];
  for (const p of parts) {
    const readyBy = printReadyBy(schedule, minutes[p.speed], p.speed);
    await tx.update(quotes).set({ readyBy }).where(eq(quotes.id, p.quoteId));
    out.push({ ...p, readyBy });
  }
  return out;
}

/**
 * The customer's parts in the cart dated again together (their minutes changed: the slicer's
 * time replaced an estimate), as a project put in the cart is.
 */
export async function redateCart(
  tx: Tx,
  userId: string,
  now = new Date(),
  /** The cart's parts the caller holds locked (lockParts): only they are dated again. */
  lockedIds: readonly string[],
): Promise<void> {
  const inCart = await tx
    .select()
    .from(quotes)
    .where(
      and(
        eq(quotes.userId, userId),
        eq(quotes.status, "in_cart"),
        inArray(quotes.id, [...lockedIds]),
      ),
    );
  await promiseDates(
    tx,
    inCart.map((q) => ({
      line: cartLine(q.id, q.fileName, q.unitPricePaise ?? 0, q.quantity ?? 1),
      breakdown: null,
      quoteId: q.id,
      speed: speedOf(q),
      printMinutes: q.printMinutes ?? 0,
      readyBy: q.readyBy,
    })),
    now,
  );
}

/** The speed a quote was priced at (quotes from before Express were Standard). */
function speedOf(quote: typeof quotes.$inferSelect): PrintSpeed {
  return quote.options?.speed === "express" ? "express" : "standard";
}

/** Accepts staff's offer: the part goes into the cart at the offered price and quantity. */
export async function acceptOffer(
  db: Database,
  userId: string,
  quoteId: string,
  now = new Date(),
): Promise<AddedToCart> {
  return db.transaction(async (tx) => {
    const quote = await lockOwnQuote(tx, userId, quoteId);
    const inCartOffer = quote.status === "in_cart" && quote.staffPriced;
    if (quote.status !== "offered" && !inCartOffer) {
      throw new QuoteError("This quote has no offer to accept.", 409);
    }
    if (!quote.expiresAt || quote.expiresAt <= now) throw new QuoteError(quoteText.expired, 409);
    const unit = quote.unitPricePaise ?? 0;
    const quantity = quote.quantity ?? 1;
    const options = quoteOptionsSchema.safeParse(quote.options);
    const speed = speedOf(quote);
    const name = options.success
      ? customPartName(
          quote.fileName,
          materialName(quote, options.data.materialId),
          options.data.colour,
          speed,
        )
      : customPartName(quote.fileName, "as agreed", "as agreed", speed);
    const productId = await upsertPartProduct(tx, quote.id, name, unit, now, offeredParcel(quote));
    await putInCart(tx, userId, productId, quantity);
    const printMinutes = quote.printMinutes ?? offeredMinutes(quote, quantity);
    await tx
      .update(quotes)
      .set({ status: "in_cart", printMinutes, updatedAt: now })
      .where(eq(quotes.id, quote.id));
    const [dated] = await promiseDates(
      tx,
      [
        {
          line: cartLine(productId, name, unit, quantity),
          breakdown: null,
          quoteId: quote.id,
          speed,
          printMinutes,
          readyBy: null,
        },
      ],
      now,
    );
    return dated;
  });
}

function materialName(quote: typeof quotes.$inferSelect, materialId: string): string {
  const rates = quoteRatesSchema.safeParse(quote.rates);
  const list = rates.success ? rates.data.materials : defaultQuoteRates.materials;
  return list.find((m) => m.id === materialId)?.name ?? materialId;
}

function cartLine(productId: string, name: string, pricePaise: number, quantity: number) {
  return { productId, name, pricePaise, image: null, category: CUSTOM_PART_CATEGORY, quantity };
}

/** The parcel of a part staff priced: the quote engine's grams and size for the options kept. */
function offeredParcel(quote: typeof quotes.$inferSelect): PartParcel | null {
  const options = quoteOptionsSchema.safeParse(quote.options);
  const rates = quoteRatesSchema.safeParse(quote.rates);
  if (!options.success) return null;
  const { breakdown } = priceQuote(
    quote.geometry,
    options.data,
    rates.success ? rates.data : defaultQuoteRates,
  );
  return Number.isFinite(breakdown.grams)
    ? customPartParcel(breakdown.grams, breakdown.size)
    : null;
}

type PartParcel = ReturnType<typeof customPartParcel>;

/** The quote engine's print minutes for a part staff priced (0 when its options are unknown). */
function offeredMinutes(quote: typeof quotes.$inferSelect, quantity: number): number {
  const options = quoteOptionsSchema.safeParse(quote.options);
  const rates = quoteRatesSchema.safeParse(quote.rates);
  if (!options.success) return 0;
  const { breakdown } = priceQuote(
    quote.geometry,
    options.data,
    rates.success ? rates.data : defaultQuoteRates,
  );
  return estimatedPrintMinutes(breakdown.printHours, quantity);
}

async function upsertPartProduct(
  tx: Tx,
  quoteId: string,
  name: string,
  unitPricePaise: number,
  now: Date,
  /** Its weight and box for the shipping rate (null: the shop's defaults). */
  parcel: PartParcel | null,
): Promise<string> {
  const parcelFields = parcel ?? {
    weightGrams: null,
    boxLengthCm: null,
    boxWidthCm: null,
    boxHeightCm: null,
  };
  const [existing] = await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.quoteId, quoteId));
  if (existing) {
    await tx
      .update(products)
      .set({ name, pricePaise: unitPricePaise, ...parcelFields, updatedAt: now })
      .where(eq(products.id, existing.id));
    return existing.id;
  }
  const [row] = await tx
    .insert(products)
    .values({
      name,
      slug: "custom-print",
      description: "A part printed to order from the customer's own model file.",
      pricePaise: unitPricePaise,
      category: CUSTOM_PART_CATEGORY,
      isActive: false,
      inStock: true,
      stockCount: null,
      hsnCode: "3926",
      ...parcelFields,
      quoteId,
    })
    .returning({ id: products.id });
  return row.id;
}

async function putInCart(tx: Tx, userId: string, productId: string, quantity: number) {
  // A custom part has one variant, its default (made with the product, decision 0015).
  const variantId = sql<string>`(select ${productVariants.id} from ${productVariants} where ${productVariants.productId} = ${productId} order by ${productVariants.position}, ${productVariants.id} limit 1)`;
  await tx
    .insert(cartItems)
    .values({ userId, productId, variantId, quantity })
    .onConflictDoUpdate({ target: [cartItems.userId, cartItems.variantId], set: { quantity } });
}

// ---------------------------------------------------------------------------------------------
// Review requests

/** The customer asks staff to look at the model (a failed check, or special wishes). */
export async function requestReview(
  db: Database,
  userId: string,
  quoteId: string,
  note: string,
  options: QuoteOptions | null,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const quote = await lockOwnQuote(tx, userId, quoteId);
    if (quote.status === "ordered")
      throw new QuoteError("This part has already been ordered.", 409);
    if (quote.status === "review_requested" || quote.status === "offered") {
      throw new QuoteError("Our team is already looking at this model.", 409);
    }
    if (await inOpenOrder(tx, quote.id)) throw new QuoteError(inOrderText, 409);
    // Out of the cart while staff look at it: its instant price no longer stands.
    const [part] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.quoteId, quote.id));
    if (part) {
      await tx
        .delete(cartItems)
        .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, part.id)));
    }
    await tx
      .update(quotes)
      .set({
        status: "review_requested",
        customerNote: note,
        options: options
          ? { ...options, unit: pricedUnit(quote.geometry, options.unit) }
          : quote.options,
        quantity: options?.quantity ?? quote.quantity,
        expiresAt: null,
        updatedAt: now,
      })
      .where(eq(quotes.id, quote.id));
  });
}

// ---------------------------------------------------------------------------------------------
// Files

/** The model file, for its owner or staff; null (answer 404) for anyone else or a missing file. */
export async function modelFileFor(
  deps: { db: Database; files: FileStorage },
  viewer: Viewer,
  quoteId: string,
): Promise<{ fileName: string; bytes: Buffer } | null> {
  const [row] = await deps.db.select().from(quotes).where(eq(quotes.id, quoteId));
  if (!row || (row.userId !== viewer.id && !viewer.isAdmin)) return null;
  const bytes = await deps.files.get(row.storagePath);
  return bytes ? { fileName: row.fileName, bytes } : null;
}

// ---------------------------------------------------------------------------------------------
// Checkout

export type QuotedLine = {
  productId: string;
  quantity: number;
  pricePaise: number;
  isActive: boolean;
  name: string;
};

/**
 * For the custom parts among checkout lines: whether each can be sold now. A part sells when its
 * quote is the customer's own, in their cart, not expired, with the held quantity, and the price
 * on the part equals the price the quote's stored geometry, options and held rates give (or
 * staff's offer). Returns the product ids that can, and a message for the first that can't.
 */
export async function checkQuotedLines(
  db: Executor,
  userId: string,
  lines: readonly { productId: string; quantity: number; pricePaise: number }[],
  now = new Date(),
): Promise<{ sellable: Set<string>; custom: Set<string>; problem: string | null }> {
  const sellable = new Set<string>();
  const custom = new Set<string>();
  if (lines.length === 0) return { sellable, custom, problem: null };
  const rows = await db
    .select({ productId: products.id, quote: quotes })
    .from(products)
    .innerJoin(quotes, eq(quotes.id, products.quoteId))
    .where(
      inArray(
        products.id,
        lines.map((l) => l.productId),
      ),
    );
  let problem: string | null = null;
  for (const { productId, quote } of rows) {
    custom.add(productId);
    const line = lines.find((l) => l.productId === productId)!;
    const reason = quoteLineProblem(quote, userId, line, now);
    if (reason) problem ??= reason;
    else sellable.add(productId);
  }
  return { sellable, custom, problem };
}

function quoteLineProblem(
  quote: typeof quotes.$inferSelect,
  userId: string,
  line: { quantity: number; pricePaise: number },
  now: Date,
): string | null {
  if (quote.userId !== userId) return quoteText.notFound;
  if (quote.status !== "in_cart") return "A custom part in your cart is no longer on offer.";
  if (!quote.expiresAt || quote.expiresAt <= now) return quoteText.expired;
  if (line.quantity !== quote.quantity) return quoteText.quantityLocked;
  if (line.pricePaise !== quote.unitPricePaise) return "A custom part's price has changed.";
  if (quote.staffPriced) return null;
  const options = quoteOptionsSchema.safeParse(quote.options);
  const rates = quoteRatesSchema.safeParse(quote.rates);
  if (!options.success || !rates.success) return quoteText.expired;
  const { breakdown } = priceQuote(
    quote.geometry,
    options.data,
    rates.data,
    slicedEstimate(quote.slice),
  );
  if (breakdown.unitPricePaise !== quote.unitPricePaise)
    return "A custom part's price has changed.";
  return null;
}

/** The slicer's figures when they set the part's price (decision 0020), else null. */
export function slicedEstimate(slice: StoredSlice | null | undefined): SlicedEstimate | null {
  if (slice?.status !== "done" || slice.outcome !== "updated") return null;
  if (slice.grams === undefined || slice.printMinutes === undefined) return null;
  return {
    grams: slice.grams,
    supportGrams: slice.supportGrams ?? null,
    printMinutes: slice.printMinutes,
  };
}

/**
 * After payment (or a cash-on-delivery order): the order's quotes are ordered, and their ready-by
 * dates are counted again from today's queue (the cart's date was promised when it was added).
 */
export async function markQuotesOrdered(tx: Tx, orderId: string, now = new Date()) {
  const parts = await tx
    .select({ id: sql<string>`${products.quoteId}` })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orderItems.orderId, orderId), sql`${products.quoteId} is not null`));
  if (parts.length === 0) return;
  // The quotes only, by id: a slicer's result for these parts (products, then quotes) waits and
  // then sees them paid. Not their product rows: the payment holds the order already, and a
  // checkout holds products before it locks an order, so taking products here could deadlock.
  await tx
    .select({ id: quotes.id })
    .from(quotes)
    .where(
      inArray(
        quotes.id,
        parts.map((p) => p.id),
      ),
    )
    .orderBy(asc(quotes.id))
    .for("update");
  await tx
    .update(quotes)
    .set({ status: "ordered", orderId, updatedAt: now })
    .where(
      inArray(
        quotes.id,
        parts.map((p) => p.id),
      ),
    );
  const ordered = await tx.select().from(quotes).where(eq(quotes.orderId, orderId));
  await promiseDates(
    tx,
    ordered.map((q) => ({
      line: cartLine(q.id, q.fileName, q.unitPricePaise ?? 0, q.quantity ?? 1),
      breakdown: null,
      quoteId: q.id,
      speed: speedOf(q),
      printMinutes: q.printMinutes ?? 0,
      readyBy: q.readyBy,
    })),
    now,
    orderId,
  );
}

/** Custom parts the customer owns among these products (the cart may show them as available). */
export async function ownCustomParts(db: Database, userId: string, productIds: string[]) {
  if (productIds.length === 0) return [];
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      pricePaise: products.pricePaise,
      status: quotes.status,
      expiresAt: quotes.expiresAt,
      options: quotes.options,
      readyBy: quotes.readyBy,
      priceNote: quotes.priceNote,
      staffPriced: quotes.staffPriced,
      slice: quotes.slice,
    })
    .from(products)
    .innerJoin(quotes, eq(quotes.id, products.quoteId))
    .where(and(inArray(products.id, productIds), eq(quotes.userId, userId)));
  const now = new Date();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    pricePaise: r.pricePaise,
    available: r.status === "in_cart" && r.expiresAt !== null && r.expiresAt > now,
    speed: (r.options?.speed === "express" ? "express" : "standard") as PrintSpeed,
    readyBy: r.readyBy,
    priceNote: r.priceNote,
    priceNoteBy: priceNoteBy(r),
  }));
}

/** Who wrote a part's price note: staff re-pricing it, or the slicer (decision 0020). */
export function priceNoteBy(q: {
  staffPriced: boolean;
  slice: StoredSlice | null;
}): "staff" | "slicer" {
  return !q.staffPriced && q.slice?.outcome === "updated" ? "slicer" : "staff";
}

// ---------------------------------------------------------------------------------------------
// Admin

export async function listQuotesForAdmin(
  db: Database,
  filter: string,
  limit = 100,
): Promise<
  Array<
    QuoteSummary & {
      customerEmail: string;
      customerName: string;
      findings: string[];
      slice: StoredSlice | null;
    }
  >
> {
  const rates = await getQuoteRates(db);
  const where =
    filter === "all"
      ? undefined
      : filter === "open"
        ? eq(quotes.status, "review_requested")
        : eq(quotes.status, filter as QuoteStatus);
  const rows = await db
    .select({ quote: quotes, email: user.email, name: user.name, productId: products.id })
    .from(quotes)
    .innerJoin(user, eq(user.id, quotes.userId))
    .leftJoin(products, eq(products.quoteId, quotes.id))
    .where(where)
    .orderBy(desc(quotes.createdAt), desc(quotes.id))
    .limit(limit);
  return rows.map((r) => {
    const summary = summarise(r.quote, r.productId);
    return {
      ...summary,
      customerEmail: r.email,
      customerName: r.name,
      findings: staffFindings(summary.geometry, summary.options, rates),
      slice: r.quote.slice,
    };
  });
}

export async function getQuoteForAdmin(db: Database, id: string) {
  const [row] = await db
    .select({ quote: quotes, email: user.email, name: user.name, productId: products.id })
    .from(quotes)
    .innerJoin(user, eq(user.id, quotes.userId))
    .leftJoin(products, eq(products.quoteId, quotes.id))
    .where(eq(quotes.id, id));
  if (!row) return null;
  const summary = summarise(row.quote, row.productId);
  return {
    ...summary,
    customerEmail: row.email,
    customerName: row.name,
    findings: staffFindings(summary.geometry, summary.options, await getQuoteRates(db)),
    slice: row.quote.slice,
  };
}

export type StaffReply =
  | { kind: "reply"; message: string }
  | { kind: "offer"; message: string; unitPricePaise: number; quantity: number }
  | { kind: "close"; message: string };

/**
 * Staff answer a quote request by e-mail: a reply, a payable offer (price per piece and quantity,
 * held for the rates' holdDays), or closing it. Written and audited in one transaction; the
 * e-mail goes after the commit.
 */
export async function answerQuote(
  deps: { db: Database; jobs?: RunJobsNow; publicUrl: string },
  actor: Viewer,
  quoteId: string,
  answer: StaffReply,
  now = new Date(),
): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const quote = (await lockParts(tx, [quoteId])).get(quoteId);
    if (!quote) throw new QuoteError(quoteText.notFound, 404);
    if (quote.status === "ordered")
      throw new QuoteError("This part has already been ordered.", 409);
    if (answer.kind !== "reply" && (await inOpenOrder(tx, quote.id))) {
      throw new QuoteError(
        "The customer has placed an order with this part and it is waiting for payment.",
        409,
      );
    }
    if (
      answer.kind === "offer" &&
      answer.unitPricePaise * answer.quantity > MAX_OFFER_TOTAL_PAISE
    ) {
      throw new QuoteError("An offer can be at most ₹50,00,000 in total.");
    }
    const [customer] = await tx
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, quote.userId));
    const rates = await getQuoteRates(tx);
    const changes: Partial<typeof quotes.$inferInsert> = {
      staffReply: answer.message,
      repliedAt: now,
      updatedAt: now,
    };
    if (answer.kind === "offer") {
      Object.assign(changes, {
        status: "offered",
        staffPriced: true,
        unitPricePaise: answer.unitPricePaise,
        quantity: answer.quantity,
        expiresAt: new Date(now.getTime() + rates.holdDays * DAY_MS),
      });
    } else if (answer.kind === "close") {
      changes.status = "closed";
    }
    if (answer.kind !== "reply") {
      // A stale price in the cart must not be bought beside an offer or after closing.
      const [part] = await tx
        .select({ id: products.id })
        .from(products)
        .where(eq(products.quoteId, quote.id));
      if (part) await tx.delete(cartItems).where(eq(cartItems.productId, part.id));
    }
    await tx.update(quotes).set(changes).where(eq(quotes.id, quote.id));
    await recordAudit(tx, actor, {
      action: `quote.${answer.kind}`,
      targetType: "quote",
      targetId: quote.id,
      summary:
        answer.kind === "offer"
          ? `Offered ${answer.quantity} × ${paiseToRupeesText(answer.unitPricePaise)} for ${quote.fileName}`
          : `${answer.kind === "close" ? "Closed" : "Replied to"} the quote for ${quote.fileName}`,
      details: { ...answer },
    });
    // The e-mail is queued with the answer: it goes out even if this process stops now.
    if (customer) {
      const url = `${deps.publicUrl}/custom-printing#my-quotes`;
      const email =
        answer.kind === "offer"
          ? quoteOfferEmail({
              name: customer.name,
              fileName: quote.fileName,
              message: answer.message,
              unitPricePaise: answer.unitPricePaise,
              quantity: answer.quantity,
              expiresAt: (changes.expiresAt as Date | undefined) ?? now,
              url,
            })
          : quoteReplyEmail({
              name: customer.name,
              fileName: quote.fileName,
              message: answer.message,
              url,
            });
      await enqueueJob(tx, "mail", { to: customer.email, ...email });
    }
  });
  await runQueuedNow(deps.jobs);
}

export type Reprice =
  /** A new price per piece for this part. */
  | { scope: "part"; unitPricePaise: number; note: string }
  /** Every priced part of this customer's project in the cart, up or down by a percentage. */
  | { scope: "project"; percent: number; note: string };

/**
 * Staff re-price a part (or the customer's whole project in the cart) before it is paid: the
 * new price goes on the quote and its cart line at once, held afresh for the rates' hold days,
 * with staff's note, so the customer sees both before paying; the customer is told by e-mail.
 * Refused once the part is paid for, and while it is in an order waiting for payment (that
 * order's amount is fixed). Audited, one entry per part.
 */
export async function repriceQuote(
  deps: { db: Database; jobs?: RunJobsNow; publicUrl: string },
  actor: Viewer,
  quoteId: string,
  change: Reprice,
  now = new Date(),
): Promise<{ parts: number }> {
  const { db } = deps;
  const count = await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ userId: quotes.userId })
      .from(quotes)
      .where(eq(quotes.id, quoteId));
    if (!owner) throw new QuoteError(quoteText.notFound, 404);
    // The project: the customer's priced parts in the cart (this one first), locked in the one
    // order (their products, then their quotes) and read again under the locks.
    const others =
      change.scope === "part"
        ? []
        : await tx
            .select({ id: quotes.id })
            .from(quotes)
            .where(
              and(
                eq(quotes.userId, owner.userId),
                eq(quotes.status, "in_cart"),
                ne(quotes.id, quoteId),
              ),
            )
            .orderBy(quotes.createdAt, quotes.id);
    const locked = await lockParts(tx, [quoteId, ...others.map((o) => o.id)]);
    const first = locked.get(quoteId);
    if (!first) throw new QuoteError(quoteText.notFound, 404);
    const targets = [
      first,
      ...others.flatMap((o) => {
        const row = locked.get(o.id);
        return row && row.status === "in_cart" && row.userId === first.userId ? [row] : [];
      }),
    ];
    const rates = await getQuoteRates(tx);
    const expiresAt = new Date(now.getTime() + rates.holdDays * DAY_MS);
    const lines: string[] = [];
    for (const quote of targets) {
      if (quote.status === "ordered") throw new QuoteError(printDatesText.alreadyPaid, 409);
      if (quote.status !== "in_cart" && quote.status !== "offered") {
        throw new QuoteError(
          "Only a part with a price (in the cart or offered) can be re-priced: make an offer instead.",
          409,
        );
      }
      if (await inOpenOrder(tx, quote.id)) {
        throw new QuoteError(
          "The customer has placed an order with this part and it is waiting for payment.",
          409,
        );
      }
      const before = quote.unitPricePaise ?? 0;
      const unitPricePaise =
        change.scope === "part"
          ? change.unitPricePaise
          : Math.max(1, Math.round(before * (1 + change.percent / 100)));
      const quantity = quote.quantity ?? 1;
      if (unitPricePaise * quantity > MAX_OFFER_TOTAL_PAISE) {
        throw new QuoteError("A part can be at most ₹50,00,000 in total.");
      }
      await tx
        .update(quotes)
        .set({
          unitPricePaise,
          staffPriced: true,
          priceNote: change.note,
          expiresAt,
          updatedAt: now,
        })
        .where(eq(quotes.id, quote.id));
      await tx
        .update(products)
        .set({ pricePaise: unitPricePaise, updatedAt: now })
        .where(eq(products.quoteId, quote.id));
      await recordAudit(tx, actor, {
        action: "quote.reprice",
        targetType: "quote",
        targetId: quote.id,
        summary: `Re-priced ${quote.fileName}: ${paiseToRupeesText(before)} → ${paiseToRupeesText(unitPricePaise)} per piece`,
        details: {
          scope: change.scope,
          fromPaise: before,
          toPaise: unitPricePaise,
          quantity,
          note: change.note,
        },
      });
      lines.push(
        `${quote.fileName}: ${quantity} × ${paiseToRupeesText(unitPricePaise)} (was ${paiseToRupeesText(before)} each)`,
      );
    }
    const [customer] = await tx
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, first.userId));
    if (customer) {
      const email = quoteReplyEmail({
        name: customer.name,
        fileName: first.fileName,
        message: `${printDatesText.repriced}:\n${lines.join("\n")}\n\n${change.note}`,
        url: `${deps.publicUrl}/cart`,
      });
      await enqueueJob(tx, "mail", { to: customer.email, ...email });
    }
    return targets.length;
  });
  await runQueuedNow(deps.jobs);
  return { parts: count };
}

/**
 * Staff record how long a paid part actually took to print (every piece) and on which of the
 * shop's printers, which takes it out of the print queue and teaches that printer's print-time
 * factor (and the shop's). A later entry corrects an earlier one.
 */
export async function recordPrintTime(
  db: Database,
  actor: Viewer,
  quoteId: string,
  actualMinutes: number,
  printer: string,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update");
    if (!quote) throw new QuoteError(quoteText.notFound, 404);
    if (quote.status !== "ordered") throw new QuoteError(printDatesText.notOrdered, 409);
    const rates = await getQuoteRates(tx);
    const printedOn = rates.printers.find((p) => p.name === printer)?.name;
    if (!printedOn) throw new QuoteError(printDatesText.unknownPrinter);
    await tx
      .update(quotes)
      .set({ actualPrintMinutes: actualMinutes, printedAt: now, printedOn, updatedAt: now })
      .where(eq(quotes.id, quote.id));
    await recordAudit(tx, actor, {
      action: "quote.printed",
      targetType: "quote",
      targetId: quote.id,
      summary: `Recorded ${actualMinutes} min of printing on ${printedOn} for ${quote.fileName}`,
      details: { actualMinutes, estimatedMinutes: quote.printMinutes, printer: printedOn },
    });
  });
}

/** Open requests, for the admin dashboard. */
export async function countOpenQuoteRequests(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(quotes)
    .where(eq(quotes.status, "review_requested"));
  return row?.n ?? 0;
}
