import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bookShipmentSchema,
  CARRIER_STAGES,
  expectedDateText,
  FINAL_STAGES,
  nextStage,
  orderProgressFor,
  packedParcel,
} from "./courier.ts";

describe("courier stages", () => {
  it("only move forward, and final stages never change", () => {
    expect(nextStage("booked", "in_transit")).toBe("in_transit");
    expect(nextStage("out_for_delivery", "in_transit")).toBe("out_for_delivery");
    expect(nextStage("delivered", "in_transit")).toBe("delivered");
    expect(nextStage("delivered", "rto_delivered")).toBe("delivered");
    expect(nextStage("in_transit", "other")).toBe("in_transit");
    const stage = fc.constantFrom(...CARRIER_STAGES);
    fc.assert(
      fc.property(stage, fc.array(stage, { maxLength: 12 }), (start, updates) => {
        // Whatever order the updates come in, applying them again changes nothing.
        const once = updates.reduce(nextStage, start);
        expect(updates.reduce(nextStage, once)).toBe(once);
        if (FINAL_STAGES.includes(start)) expect(once).toBe(start);
      }),
    );
  });

  it("tell the order what to do", () => {
    expect(orderProgressFor("in_transit")).toBe("shipped");
    expect(orderProgressFor("out_for_delivery")).toBe("out_for_delivery");
    expect(orderProgressFor("delivered")).toBe("delivered");
    expect(orderProgressFor("rto_delivered")).toBe("returned");
    expect(orderProgressFor("booked")).toBeNull();
    expect(orderProgressFor("cancelled")).toBeNull();
    expect(orderProgressFor("other")).toBeNull();
  });

  it("show the courier's date as the customer reads it", () => {
    expect(expectedDateText("2026-12-04")).toBe("Fri 4 Dec");
  });
});

describe("the parcel staff start from", () => {
  it("adds packed weights and holds every item's volume in the largest footprint", () => {
    const parcel = { weightGrams: 300, lengthCm: 20, widthCm: 10, heightCm: 5 };
    expect(packedParcel([{ parcel, quantity: 3 }])).toEqual({
      grams: 900,
      box: { lengthCm: 20, widthCm: 10, heightCm: 15 },
    });
    expect(packedParcel([])).toMatchObject({ grams: 250 });
  });

  it("never makes a box smaller than its items' volume", () => {
    const side = fc.integer({ min: 1, max: 60 });
    const item = fc.record({
      parcel: fc.record({
        weightGrams: fc.integer({ min: 1, max: 5000 }),
        lengthCm: side,
        widthCm: side,
        heightCm: side,
      }),
      quantity: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), (lines) => {
        const { box, grams } = packedParcel(lines);
        const volume = lines.reduce(
          (v, l) => v + l.parcel.lengthCm * l.parcel.widthCm * l.parcel.heightCm * l.quantity,
          0,
        );
        expect(box.lengthCm * box.widthCm * box.heightCm).toBeGreaterThanOrEqual(
          Math.min(volume, box.lengthCm * box.widthCm * 300),
        );
        expect(grams).toBeGreaterThan(0);
      }),
    );
  });

  it("refuses a booking form without a courier or with a parcel out of range", () => {
    const ok = { courierId: "33", grams: "700", lengthCm: "20", widthCm: "15", heightCm: "10" };
    expect(bookShipmentSchema.parse(ok)).toMatchObject({ grams: 700, courierName: "", awb: "" });
    expect(bookShipmentSchema.safeParse({ ...ok, courierId: "" }).error?.issues[0].message).toBe(
      "Please choose a courier.",
    );
    expect(bookShipmentSchema.safeParse({ ...ok, grams: "-5" }).success).toBe(false);
    expect(bookShipmentSchema.safeParse({ ...ok, heightCm: "1000" }).success).toBe(false);
  });
});
