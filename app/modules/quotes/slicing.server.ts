import { and, eq, inArray, or } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { SliceResult, Slicer } from "~/adapters/slicer/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import { orderItems, orders, products, quotes } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { JobInterrupted } from "~/modules/jobs/jobs.server.ts";
import { partForSlicing } from "~/rules/model3d/slice-input.ts";
import { estimatedPrintMinutes } from "~/rules/print-dates.ts";
import { priceQuote, quoteOptionsSchema, quoteRatesSchema } from "~/rules/quote-pricing.ts";
import { customPartParcel } from "~/rules/shipping-rates.ts";
import {
  type SlicePartState,
  type StoredSlice,
  slicerPriceOutcome,
  slicingText,
} from "~/rules/slicing.ts";
import { inOpenOrder, lockParts, redateCart } from "./quotes.server.ts";

/*
 * Slicer-true estimates (docs/decisions/0020). A part priced into the cart gets a `slice-quote`
 * job; the slicing runner (one job per core) cuts the part out of the stored file, slices it with
 * the material's profile and the chosen settings, and records the figures. The price changes only
 * for a part still in the cart at the instant price, beyond the tolerance, and never once an order
 * holds it: that is decided under the part's row locks, in the transaction that writes it.
 */

export type SliceDeps = { db: Database; files: FileStorage; slicer: Slicer };

type QuoteRow = typeof quotes.$inferSelect;

/** The `slice-quote` job: slices the quote's part and records what it found. */
export async function sliceQuotedPart(
  deps: SliceDeps,
  job: { quoteId: string; key: string },
  now = new Date(),
): Promise<void> {
  const [quote] = await deps.db.select().from(quotes).where(eq(quotes.id, job.quoteId));
  // Priced again (or removed) since: that pricing has a job of its own.
  if (!quote || quote.slice?.key !== job.key || quote.slice.status !== "queued") return;
  const started = Date.now();
  const result = await slicePart(deps, quote);
  // Cut short by the shop stopping: not a failure of the part; the job is queued again as it was.
  if (!result.ok && result.reason === "stopped") throw new JobInterrupted(result.message);
  await recordSlice(deps.db, job, result, deps.slicer.name, now);
  const fields = { quoteId: quote.id, ms: Date.now() - started };
  if (result.ok) log.info("sliced a quoted part", { ...fields, grams: result.grams });
  else {
    log.warning("slicing a quoted part failed; the instant estimate stands", {
      ...fields,
      reason: result.reason,
      error: result.message,
    });
  }
}

async function slicePart(deps: SliceDeps, quote: QuoteRow): Promise<SliceResult> {
  const options = quoteOptionsSchema.safeParse(quote.options);
  const rates = quoteRatesSchema.safeParse(quote.rates);
  if (!options.success || !rates.success) {
    return { ok: false, reason: "failed", message: "the quote's options can't be read" };
  }
  const { breakdown } = priceQuote(quote.geometry, options.data, rates.data);
  const material = rates.data.materials.find((m) => m.id === options.data.materialId);
  if (!material) return { ok: false, reason: "failed", message: "the material is gone" };
  // The roomiest printer that holds the part (its bed for the slicer).
  const printer = rates.data.printers
    .filter((p) => breakdown.fitsPrinters.includes(p.name))
    .sort((a, b) => b.x * b.y - a.x * a.y)[0];
  if (!printer) return { ok: false, reason: "failed", message: "no printer holds this part" };
  try {
    const bytes = await deps.files.get(quote.storagePath);
    if (!bytes) return { ok: false, reason: "failed", message: "the model file is missing" };
    const stl = partForSlicing(
      new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      quote.storagePath,
      quote.geometry,
      breakdown.mmPerUnit,
    );
    return await deps.slicer.slice({
      stl,
      materialId: material.id,
      density: material.density,
      layerHeightMm: options.data.layerHeight,
      infillPercent: options.data.infillPercent,
      supports: breakdown.supportGrams > 0,
      bed: { x: printer.x, y: printer.y },
    });
  } catch (error) {
    return {
      ok: false,
      reason: "failed",
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/**
 * Writes the slicer's result. The part and the customer's other parts in the cart (dated again
 * with it) are locked in the one order every path takes (lockParts: their products, then their
 * quotes), so an order placed or paid at the same moment is either seen here or waits and then
 * sees the new price, and no lock cycle forms with the customer adding parts to the cart.
 */
async function recordSlice(
  db: Database,
  job: { quoteId: string; key: string },
  result: SliceResult,
  slicerName: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ userId: quotes.userId })
      .from(quotes)
      .where(eq(quotes.id, job.quoteId));
    if (!owner) return;
    const inCart = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.userId, owner.userId), eq(quotes.status, "in_cart")));
    const locked = await lockParts(tx, [job.quoteId, ...inCart.map((q) => q.id)]);
    const quote = locked.get(job.quoteId);
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.quoteId, job.quoteId));
    if (!quote?.slice || quote.slice.key !== job.key || quote.slice.status !== "queued") return;
    const base = { ...quote.slice, slicer: slicerName, slicedAt: now.toISOString() };
    if (!result.ok) {
      const slice: StoredSlice = {
        ...base,
        status: "failed",
        error: `${result.reason}: ${result.message}`.slice(0, 500),
      };
      await tx.update(quotes).set({ slice }).where(eq(quotes.id, quote.id));
      return;
    }
    const figures = {
      grams: result.grams,
      supportGrams: result.supportGrams,
      printMinutes: result.printSeconds / 60,
    };
    const options = quoteOptionsSchema.parse(quote.options);
    const rates = quoteRatesSchema.parse(quote.rates);
    const sliced = priceQuote(quote.geometry, options, rates, figures).breakdown;
    const state = await partState(tx, quote, product?.id ?? null);
    const instantUnitPaise = quote.unitPricePaise ?? base.instant.unitPricePaise;
    const outcome = slicerPriceOutcome({
      instantUnitPaise,
      slicedUnitPaise: sliced.unitPricePaise,
      tolerancePercent: rates.slicerTolerancePercent,
      state,
    });
    const slice: StoredSlice = {
      ...base,
      status: "done",
      ...figures,
      slicedUnitPricePaise: sliced.unitPricePaise,
      outcome,
    };
    const quantity = quote.quantity ?? options.quantity;
    const changes: Partial<typeof quotes.$inferInsert> = {
      slice,
      // The queue counts the slicer's time from now on (a paid part's promised date stays).
      printMinutes: estimatedPrintMinutes(sliced.printHours, quantity),
      updatedAt: now,
    };
    if (outcome === "updated") {
      changes.unitPricePaise = sliced.unitPricePaise;
      changes.priceNote = slicingText.note(figures, instantUnitPaise, sliced.unitPricePaise);
      if (product) {
        await tx
          .update(products)
          .set({
            pricePaise: sliced.unitPricePaise,
            ...customPartParcel(sliced.grams, sliced.size),
            updatedAt: now,
          })
          .where(eq(products.id, product.id));
      }
    }
    await tx.update(quotes).set(changes).where(eq(quotes.id, quote.id));
    if (state === "in-cart") await redateCart(tx, quote.userId, now, [...locked.keys()]);
  });
}

/** Where the part stands, read under its locks. */
async function partState(
  tx: Tx,
  quote: QuoteRow,
  productId: string | null,
): Promise<SlicePartState> {
  if (quote.status === "ordered" || quote.orderId) return "paid";
  if (productId) {
    // Paid, or a cash-on-delivery order on its way: the price is the order's.
    const [held] = await tx
      .select({ id: orders.id })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(
        and(
          eq(orderItems.productId, productId),
          or(
            eq(orders.paymentStatus, "paid"),
            inArray(orders.status, ["processing", "shipped", "delivered", "refunded"]),
          ),
        ),
      )
      .limit(1);
    if (held) return "paid";
  }
  if (await inOpenOrder(tx, quote.id)) return "awaiting-payment";
  if (quote.staffPriced) return "staff-priced";
  if (quote.status !== "in_cart") return "not-in-cart";
  return "in-cart";
}
