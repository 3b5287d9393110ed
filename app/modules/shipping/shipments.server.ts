import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  notInArray,
  or,
} from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  CarrierError,
  type LabelInput,
  type Serviceability,
  type ShipmentRef,
  type ShippingCarrier,
  type TrackingEvent,
} from "~/adapters/shipping/index.server.ts";
import type { ManualOptions } from "~/adapters/shipping/manual.server.ts";
import {
  orderItems,
  orders,
  pinCodes,
  products,
  shipmentBookings,
  shipmentEvents,
  shipments,
  user,
} from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { type AuditActor, recordAudit } from "~/modules/audit/audit.server.ts";
import { type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import {
  applyCarrierProgress,
  type CarrierOutcome,
  lockOrder,
  OrderNotFoundError,
} from "~/modules/orders/lifecycle.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import {
  type BookShipmentInput,
  type CarrierStage,
  cancellableStage,
  FINAL_STAGES,
  nextStage,
  orderProgressFor,
  packedParcel,
} from "~/rules/courier.ts";
import { TRANSIT_DAYS, zoneBetween } from "~/rules/delivery.ts";
import { istDayEnd, istDayStart } from "~/rules/india-time.ts";
import { chargeableGrams, parcelOf, shippingRate } from "~/rules/shipping-rates.ts";
import { findPin } from "./pin-directory.server.ts";

/*
 * Courier shipments (issue 24; docs/decisions/0016-courier-adapter.md): staff book an order's
 * parcel with the configured courier, print its label and ask for a pickup; the courier's
 * tracking updates (webhook, or polling as a fallback) are recorded once each and move the order
 * forward through the orders module's lifecycle. This module owns `shipments` and
 * `shipment_events`; it never writes an order itself.
 */

export type ShipmentDeps = { db: Database; carrier: ShippingCarrier; jobs?: RunJobsNow };

export type ShipmentRow = typeof shipments.$inferSelect;
export type ShipmentEventRow = typeof shipmentEvents.$inferSelect;

/** Something staff asked that the shipment's or order's state doesn't allow (a 409 with this text). */
export class ShipmentError extends Error {
  override name = "ShipmentError";
}

const refOf = (s: ShipmentRow): ShipmentRef => ({
  awb: s.awb,
  courierName: s.courierName,
  carrierOrderId: s.carrierOrderId,
  carrierShipmentId: s.carrierShipmentId,
});

async function loadOrder(db: Database, orderId: string) {
  const [o] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!o) throw new OrderNotFoundError();
  return o;
}

/** What the shipment page shows of its order (null: no such order). */
export async function orderForShipment(db: Database, orderId: string) {
  const [o] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      shippingAddress: orders.shippingAddress,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  return o ?? null;
}

/** The order's live shipment (not cancelled), if any. */
export async function liveShipment(db: Database, orderId: string): Promise<ShipmentRow | null> {
  const [s] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), ne(shipments.stage, "cancelled")));
  return s ?? null;
}

// ---- booking -----------------------------------------------------------------------------------

export type BookingQuote = {
  /** The parcel prefilled from the products' packed weights and boxes. */
  grams: number;
  box: { lengthCm: number; widthCm: number; heightCm: number };
  cod: boolean;
  options: Serviceability;
  /** The courier whose rate the customer paid at checkout (decision 0019), preselected. */
  checkoutCourierId: string | null;
};

/** The parcel an order's items make, as staff start the booking form with it. */
export async function orderParcel(db: Database, orderId: string) {
  const rows = await db
    .select({
      quantity: orderItems.quantity,
      weightGrams: products.weightGrams,
      boxLengthCm: products.boxLengthCm,
      boxWidthCm: products.boxWidthCm,
      boxHeightCm: products.boxHeightCm,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId));
  return packedParcel(rows.map((r) => ({ parcel: parcelOf(r), quantity: r.quantity })));
}

/** The couriers that can take an order's parcel, with price and days, for the booking form. */
export async function bookingQuote(
  deps: ShipmentDeps,
  orderId: string,
  parcel?: { grams: number; box: BookingQuote["box"] },
): Promise<BookingQuote> {
  const o = await loadOrder(deps.db, orderId);
  const settings = await getShopSettings(deps.db);
  const { grams, box } = parcel ?? (await orderParcel(deps.db, orderId));
  const cod = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
  const options = await deps.carrier.serviceability({
    pickupPin: settings.shipFromPin,
    deliveryPin: o.shippingAddress.postalCode,
    grams,
    cod,
    box,
    declaredValuePaise: o.totalPaise,
  });
  return { grams, box, cod, options, checkoutCourierId: o.shippingMethod.courierId ?? null };
}

/**
 * Books an order's parcel with the courier staff chose. Only a processing order (paid, or placed
 * for cash on delivery) without a live shipment is booked. The chosen courier must still be among
 * those the carrier offers for this parcel now (its price is recorded from that answer, never from
 * the form). The manual courier's booking is today's "mark shipped": the order ships at once.
 */
export async function bookShipment(
  deps: ShipmentDeps,
  orderId: string,
  input: BookShipmentInput,
  actor: AuditActor,
): Promise<ShipmentRow> {
  // One booking of an order at a time, across processes: two staff pressing "Book shipment" at
  // once book one parcel (one AWB); the other is told so.
  const claim = await claimBooking(deps.db, orderId);
  if (!claim) throw new ShipmentError(BOOKING_IN_PROGRESS);
  try {
    return await bookClaimed(deps, orderId, input, actor);
  } finally {
    await deps.db
      .delete(shipmentBookings)
      .where(and(eq(shipmentBookings.orderId, orderId), eq(shipmentBookings.startedAt, claim)))
      .catch((error: unknown) =>
        log.error("a shipment booking's claim could not be released", { orderId, error }),
      );
  }
}

export const BOOKING_IN_PROGRESS =
  "Someone is booking this order's shipment right now. Please reload the page in a moment.";

/** A claim older than this (its process died mid-booking) may be taken over. */
const BOOKING_CLAIM_MS = 2 * 60_000;

/** Takes the order's booking claim (its time); null when another booking of it is in progress. */
async function claimBooking(db: Database, orderId: string): Promise<Date | null> {
  const now = new Date();
  const [taken] = await db
    .insert(shipmentBookings)
    .values({ orderId, startedAt: now })
    .onConflictDoUpdate({
      target: shipmentBookings.orderId,
      set: { startedAt: now },
      setWhere: lt(shipmentBookings.startedAt, new Date(now.getTime() - BOOKING_CLAIM_MS)),
    })
    .returning({ orderId: shipmentBookings.orderId });
  return taken ? now : null;
}

async function bookClaimed(
  deps: ShipmentDeps,
  orderId: string,
  input: BookShipmentInput,
  actor: AuditActor,
): Promise<ShipmentRow> {
  const { db, carrier } = deps;
  const o = await loadOrder(db, orderId);
  if (o.status !== "processing") {
    throw new ShipmentError(
      o.status === "pending"
        ? "This order isn't paid yet, so it can't be shipped."
        : `This order is ${o.status}, so it can't be booked with a courier.`,
    );
  }
  if (await liveShipment(db, orderId)) {
    throw new ShipmentError("This order already has a shipment: cancel it first to book again.");
  }
  const box = { lengthCm: input.lengthCm, widthCm: input.widthCm, heightCm: input.heightCm };
  const quote = await bookingQuote(deps, orderId, { grams: input.grams, box });
  if (!quote.options.serviceable) throw new ShipmentError(quote.options.reason);
  const option = quote.options.options.find((x) => x.courierId === input.courierId);
  if (!option) {
    throw new ShipmentError("That courier doesn't take this parcel now: please choose another.");
  }
  const [{ n }] = await db
    .select({ n: count() })
    .from(shipments)
    .where(eq(shipments.orderId, orderId));
  const reference = `${o.orderNumber}-${n + 1}`;
  const [customer] = await db.select({ email: user.email }).from(user).where(eq(user.id, o.userId));
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const a = o.shippingAddress;
  const booked = await carrier.createShipment({
    reference,
    orderDate: o.createdAt,
    to: {
      name: a.name,
      line1: a.line1,
      line2: a.line2,
      city: a.city,
      state: a.state,
      pin: a.postalCode,
      phone: a.phone,
      email: customer?.email ?? "",
    },
    items: items.map((i) => ({
      name: i.name,
      sku: (i.productId ?? i.id).slice(0, 36),
      units: i.quantity,
      unitPricePaise: i.unitPricePaise,
      hsn: i.hsnCode,
    })),
    cod: quote.cod,
    totalPaise: o.totalPaise,
    subTotalPaise: o.subtotalPaise,
    grams: input.grams,
    box,
    courierId: carrier.name === "manual" ? null : option.courierId,
    manual:
      carrier.name === "manual" ? { courierName: input.courierName, awb: input.awb } : undefined,
  });
  const now = new Date();
  let outcome: CarrierOutcome = { moved: [], emailed: false };
  try {
    const row = await db.transaction(async (tx) => {
      await lockOrder(tx, orderId);
      const [s] = await tx
        .insert(shipments)
        .values({
          orderId,
          carrier: carrier.name,
          reference,
          stage: "booked",
          courierId: booked.courierId,
          courierName: booked.courierName || option.courierName,
          awb: booked.awb,
          carrierOrderId: booked.carrierOrderId,
          carrierShipmentId: booked.carrierShipmentId,
          grams: input.grams,
          boxLengthCm: box.lengthCm,
          boxWidthCm: box.widthCm,
          boxHeightCm: box.heightCm,
          ratePaise: option.paise,
          expectedDate: option.etd,
        })
        .returning();
      await recordAudit(tx, actor, {
        action: "order.ship-book",
        targetType: "order",
        targetId: orderId,
        summary: `Booked ${o.orderNumber} with ${s.courierName}, AWB ${s.awb}`,
        details: { orderNumber: o.orderNumber, carrier: carrier.name, awb: s.awb },
      });
      if (carrier.name === "manual") {
        // Today's flow: staff who type the courier and AWB have handed the parcel over.
        await tx.insert(shipmentEvents).values({
          shipmentId: s.id,
          eventKey: `staff|in_transit|${now.toISOString()}`,
          stage: "in_transit",
          statusCode: "staff",
          label: `Handed to ${s.courierName}`,
          occurredAt: now,
          source: "staff",
        });
        await tx
          .update(shipments)
          .set({ stage: "in_transit", lastEventAt: now })
          .where(eq(shipments.id, s.id));
        outcome = await applyCarrierProgress(
          tx,
          orderId,
          { progress: "shipped", carrier: s.courierName, trackingNumber: s.awb, trackingUrl: null },
          now,
        );
      }
      return s;
    });
    if (outcome.emailed) await runQueuedNow(deps.jobs);
    return row;
  } catch (error) {
    // The carrier has a booking the shop couldn't record: take it back (best effort).
    await carrier.cancel(refOf({ ...booked } as ShipmentRow)).catch((e: unknown) =>
      log.error("a courier booking could not be recorded nor cancelled", {
        orderId,
        awb: booked.awb,
        error: e,
      }),
    );
    if (isUniqueViolation(error)) {
      throw new ShipmentError(
        "This order was booked meanwhile (or the courier's AWB is already in use): please reload.",
      );
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

async function loadShipment(db: Database, shipmentId: string): Promise<ShipmentRow> {
  const [s] = await db.select().from(shipments).where(eq(shipments.id, shipmentId));
  if (!s) throw new ShipmentError("There is no such shipment.");
  return s;
}

/** Staff ask the courier to collect a booked parcel. */
export async function requestPickup(
  deps: ShipmentDeps,
  shipmentId: string,
  actor: AuditActor,
): Promise<ShipmentRow> {
  const s = await loadShipment(deps.db, shipmentId);
  if (!cancellableStage(s.stage) || s.carrier !== deps.carrier.name) {
    throw new ShipmentError("The courier already has this parcel, so no pickup is needed.");
  }
  const pickup = await deps.carrier.requestPickup(refOf(s));
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(shipments)
      .set({
        pickupRequestedAt: now,
        pickupDate: pickup.scheduledDate,
        pickupToken: pickup.token,
        stage: nextStage(s.stage, "pickup_scheduled"),
        updatedAt: now,
      })
      .where(eq(shipments.id, s.id))
      .returning();
    await recordAudit(tx, actor, {
      action: "order.ship-pickup",
      targetType: "order",
      targetId: s.orderId,
      summary: `Asked ${s.courierName} to pick up AWB ${s.awb}${pickup.scheduledDate ? ` on ${pickup.scheduledDate}` : ""}`,
      details: { awb: s.awb, pickupDate: pickup.scheduledDate, token: pickup.token },
    });
    return row;
  });
}

/** Staff cancel a booking the courier hasn't collected yet (the order can be booked again). */
export async function cancelShipment(
  deps: ShipmentDeps,
  shipmentId: string,
  actor: AuditActor,
): Promise<void> {
  const s = await loadShipment(deps.db, shipmentId);
  if (!cancellableStage(s.stage) || s.carrier !== deps.carrier.name) {
    throw new ShipmentError(
      s.stage === "cancelled"
        ? "This shipment is already cancelled."
        : "The courier already has this parcel, so the booking can't be cancelled.",
    );
  }
  await deps.carrier.cancel(refOf(s));
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(shipments)
      .set({ stage: "cancelled", cancelledAt: now, updatedAt: now })
      .where(eq(shipments.id, s.id));
    await recordAudit(tx, actor, {
      action: "order.ship-cancel",
      targetType: "order",
      targetId: s.orderId,
      summary: `Cancelled the ${s.courierName} booking, AWB ${s.awb}`,
      details: { awb: s.awb },
    });
  });
}

// ---- labels ------------------------------------------------------------------------------------

async function labelInput(db: Database, s: ShipmentRow): Promise<LabelInput> {
  const o = await loadOrder(db, s.orderId);
  const settings = await getShopSettings(db);
  const [customer] = await db.select({ email: user.email }).from(user).where(eq(user.id, o.userId));
  const a = o.shippingAddress;
  const cod = o.paymentMethod === "cod" && o.paymentStatus === "unpaid";
  const from = await findPin(db, settings.shipFromPin);
  return {
    ...refOf(s),
    reference: o.orderNumber,
    from: {
      name: settings.shopName,
      line1: settings.shopAddress,
      // The ships-from PIN's city and state from the directory (the shop's state if it isn't there).
      city: from?.district ?? "",
      state: from?.state ?? settings.shopState,
      pin: settings.shipFromPin,
      phone: settings.shopPhone,
    },
    to: {
      name: a.name,
      line1: a.line1,
      line2: a.line2,
      city: a.city,
      state: a.state,
      pin: a.postalCode,
      phone: a.phone,
      email: customer?.email ?? "",
    },
    grams: s.grams,
    box: { lengthCm: s.boxLengthCm, widthCm: s.boxWidthCm, heightCm: s.boxHeightCm },
    codPaise: cod ? o.totalPaise : null,
  };
}

/** A shipment's label PDF (the carrier's, or the shop's own for the manual courier). */
export async function shipmentLabel(
  deps: ShipmentDeps,
  shipmentId: string,
): Promise<{ shipment: ShipmentRow; pdf: Uint8Array }> {
  const s = await loadShipment(deps.db, shipmentId);
  if (s.stage === "cancelled") throw new ShipmentError("This shipment is cancelled.");
  if (s.carrier !== deps.carrier.name) {
    throw new ShipmentError(`This shipment was booked with ${s.carrier}, not configured now.`);
  }
  return { shipment: s, pdf: await deps.carrier.label(await labelInput(deps.db, s)) };
}

/** Every live shipment booked on a day in India (yyyy-mm-dd), oldest first: the bulk print. */
export async function shipmentsBookedOn(db: Database, day: string): Promise<ShipmentRow[]> {
  return db
    .select()
    .from(shipments)
    .where(
      and(
        ne(shipments.stage, "cancelled"),
        gte(shipments.createdAt, istDayStart(day)),
        lt(shipments.createdAt, istDayEnd(day)),
      ),
    )
    .orderBy(asc(shipments.createdAt), asc(shipments.id));
}

/** The labels of a day's shipments in one PDF (null when there are none). */
export async function labelsForDay(
  deps: ShipmentDeps,
  day: string,
  merge: (files: Uint8Array[]) => Promise<Uint8Array>,
): Promise<Uint8Array | null> {
  const list = (await shipmentsBookedOn(deps.db, day)).filter(
    (s) => s.carrier === deps.carrier.name,
  );
  if (list.length === 0) return null;
  const files: Uint8Array[] = [];
  for (const s of list) files.push(await deps.carrier.label(await labelInput(deps.db, s)));
  return merge(files);
}

// ---- tracking ----------------------------------------------------------------------------------

export type TrackingOutcome =
  | { outcome: "unknown-awb" }
  | { outcome: "duplicate" }
  | { outcome: "applied"; stage: CarrierStage; moved: CarrierOutcome["moved"] };

/**
 * One tracking update (webhook or poll): recorded once per shipment under its key, the
 * shipment's stage moved forward only, and the order moved through the orders module, all in one
 * transaction; the e-mails it queued go out after the commit.
 */
export async function recordTrackingEvent(
  deps: ShipmentDeps,
  event: TrackingEvent,
  source: "webhook" | "poll",
): Promise<TrackingOutcome> {
  const now = new Date();
  const result = await deps.db.transaction(
    async (tx): Promise<TrackingOutcome & { emailed?: boolean }> => {
      const [s] = await tx
        .select()
        .from(shipments)
        .where(
          and(
            eq(shipments.carrier, deps.carrier.name),
            eq(shipments.awb, event.awb),
            ne(shipments.stage, "cancelled"),
          ),
        )
        .for("update");
      if (!s) return { outcome: "unknown-awb" };
      const [inserted] = await tx
        .insert(shipmentEvents)
        .values({
          shipmentId: s.id,
          eventKey: event.key.slice(0, 200),
          stage: event.stage,
          statusCode: event.statusCode.slice(0, 40),
          label: event.label.slice(0, 200),
          location: event.location?.slice(0, 200) ?? null,
          activity: event.activity?.slice(0, 500) ?? null,
          occurredAt: event.occurredAt,
          source,
          raw: event.raw ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: shipmentEvents.id });
      if (!inserted) return { outcome: "duplicate" };
      const stage = nextStage(s.stage, event.stage);
      await tx
        .update(shipments)
        .set({
          stage,
          expectedDate: FINAL_STAGES.includes(stage)
            ? s.expectedDate
            : (event.etd ?? s.expectedDate),
          lastEventAt: now,
          updatedAt: now,
        })
        .where(eq(shipments.id, s.id));
      const progress = orderProgressFor(event.stage);
      let moved: CarrierOutcome = { moved: [], emailed: false };
      if (progress && event.stage !== "cancelled") {
        moved = await applyCarrierProgress(
          tx,
          s.orderId,
          { progress, carrier: s.courierName, trackingNumber: s.awb, trackingUrl: null },
          now,
        );
      }
      return { outcome: "applied", stage, moved: moved.moved, emailed: moved.emailed };
    },
  );
  if ("emailed" in result && result.emailed) await runQueuedNow(deps.jobs);
  if (result.outcome === "applied") {
    return { outcome: "applied", stage: result.stage, moved: result.moved };
  }
  return result;
}

/** How long after its last update a moving shipment is asked about again. */
const POLL_AFTER_MS = 3 * 3_600_000;

/**
 * The fallback when webhooks stop (or never were set up): asks the carrier about shipments still
 * moving that haven't been heard of for a while, and records what it says (each update once).
 */
export async function pollTracking(
  deps: ShipmentDeps,
  now = new Date(),
  batch = 20,
): Promise<number> {
  const due = await deps.db
    .select()
    .from(shipments)
    .where(
      and(
        eq(shipments.carrier, deps.carrier.name),
        notInArray(shipments.stage, [...FINAL_STAGES]),
        or(
          isNull(shipments.lastEventAt),
          lte(shipments.lastEventAt, new Date(now.getTime() - POLL_AFTER_MS)),
        ),
      ),
    )
    .orderBy(asc(shipments.lastEventAt))
    .limit(batch);
  let applied = 0;
  for (const s of due) {
    let events: TrackingEvent[];
    try {
      events = await deps.carrier.track(s.awb);
    } catch (error) {
      if (!(error instanceof CarrierError)) throw error;
      log.warning("courier tracking poll failed", { awb: s.awb, error });
      continue;
    }
    await deps.db.update(shipments).set({ lastEventAt: now }).where(eq(shipments.id, s.id));
    for (const e of [...events].sort((x, y) => x.occurredAt.getTime() - y.occurredAt.getTime())) {
      const r = await recordTrackingEvent(deps, e, "poll");
      if (r.outcome === "applied") applied += 1;
    }
  }
  return applied;
}

// ---- reading -----------------------------------------------------------------------------------

export type ShipmentView = ShipmentRow & { events: ShipmentEventRow[] };

/** Each order's newest shipment with its updates in time order (the timeline), keyed by order. */
export async function shipmentsForOrders(
  db: Database,
  orderIds: readonly string[],
): Promise<Map<string, ShipmentView>> {
  const out = new Map<string, ShipmentView>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select()
    .from(shipments)
    .where(inArray(shipments.orderId, [...orderIds]))
    .orderBy(desc(shipments.createdAt));
  for (const s of rows) {
    const current = out.get(s.orderId);
    // The live shipment wins over cancelled ones; among those, the newest.
    if (!current || (current.stage === "cancelled" && s.stage !== "cancelled")) {
      out.set(s.orderId, { ...s, events: [] });
    }
  }
  const ids = [...out.values()].map((s) => s.id);
  if (ids.length > 0) {
    const events = await db
      .select()
      .from(shipmentEvents)
      .where(inArray(shipmentEvents.shipmentId, ids))
      .orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.receivedAt));
    const byId = new Map([...out.values()].map((s) => [s.id, s]));
    for (const e of events) byId.get(e.shipmentId)?.events.push(e);
  }
  return out;
}

export type ShipmentListRow = ShipmentRow & { orderNumber: string; customerName: string };

/** The admin's shipments list: newest first, or only those whose pickup is on `pickupDay`. */
export async function listShipments(
  db: Database,
  options: { pickupDay?: string; limit?: number } = {},
): Promise<ShipmentListRow[]> {
  const rows = await db
    .select({
      shipment: shipments,
      orderNumber: orders.orderNumber,
      address: orders.shippingAddress,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(
      options.pickupDay
        ? and(eq(shipments.pickupDate, options.pickupDay), ne(shipments.stage, "cancelled"))
        : undefined,
    )
    .orderBy(desc(shipments.createdAt), desc(shipments.id))
    .limit(options.limit ?? 100);
  return rows.map((r) => ({
    ...r.shipment,
    orderNumber: r.orderNumber,
    customerName: r.address.name,
  }));
}

/**
 * The manual courier's price and days for a parcel: the shop's rate table for the zone between
 * the two PIN codes (the directory; an unknown delivery PIN is not served) and its transit days.
 */
export function manualQuote(db: Database): ManualOptions["quote"] {
  return async (r) => {
    const pins = [...new Set([r.pickupPin, r.deliveryPin])];
    const places = await db.select().from(pinCodes).where(inArray(pinCodes.pin, pins));
    const to = places.find((p) => p.pin === r.deliveryPin);
    if (!to) return null;
    const settings = await getShopSettings(db);
    const from = places.find((p) => p.pin === r.pickupPin) ?? {
      district: "",
      state: settings.shopState,
      metro: null,
      specialZone: null,
    };
    const zone = zoneBetween(from, to);
    const grams = chargeableGrams({
      weightGrams: r.grams,
      lengthCm: r.box?.lengthCm ?? 0,
      widthCm: r.box?.widthCm ?? 0,
      heightCm: r.box?.heightCm ?? 0,
    });
    return {
      paise: shippingRate(settings.shippingRates, zone, grams),
      days: settings.transitDays[zone] ?? TRANSIT_DAYS[zone],
    };
  };
}
