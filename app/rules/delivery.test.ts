import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  deliveryLine,
  estimateDelivery,
  estimateQuerySchema,
  itemKindOf,
  readyWorkingDays,
  TRANSIT_DAYS,
  ZONES,
  zoneBetween,
} from "./delivery.ts";
import { type PinPlace, SPECIAL_ZONES } from "./pin-directory.ts";

const place = (
  pin: string,
  district: string,
  state: string,
  metro: string | null = null,
  specialZone: PinPlace["specialZone"] = null,
): PinPlace => ({ pin, district, state, metro, specialZone });

const bengaluru = place("560001", "Bengaluru", "Karnataka", "Bengaluru");
const bengaluruSouth = place("560095", "Bengaluru", "Karnataka", "Bengaluru");
const mysuru = place("570001", "Mysore", "Karnataka");
const kolkata = place("700016", "Kolkata", "West Bengal", "Kolkata");
const newDelhi = place("110001", "New Delhi", "Delhi", "Delhi NCR");
const gurgaon = place("122001", "Gurgaon", "Haryana", "Delhi NCR");
const patna = place("800001", "Patna", "Bihar");
const guwahati = place("781001", "Kamrup Metropolitan", "Assam", null, "north-east");
const leh = place("194101", "Leh", "Ladakh", null, "ladakh");
const portBlair = place(
  "744101",
  "South Andaman",
  "Andaman and Nicobar Islands",
  null,
  "andaman-nicobar",
);

describe("zone from two PINs", () => {
  it("within the city, the state, metro to metro, rest of India, special zones", () => {
    expect(zoneBetween(bengaluru, bengaluruSouth)).toBe("local");
    // One metro area over two states (Delhi NCR) is one city for couriers.
    expect(zoneBetween(newDelhi, gurgaon)).toBe("local");
    expect(zoneBetween(bengaluru, mysuru)).toBe("state");
    expect(zoneBetween(bengaluru, kolkata)).toBe("metro");
    expect(zoneBetween(bengaluru, patna)).toBe("rest");
    expect(zoneBetween(mysuru, kolkata)).toBe("rest");
    expect(zoneBetween(bengaluru, guwahati)).toBe("special");
    expect(zoneBetween(bengaluru, leh)).toBe("special");
    expect(zoneBetween(bengaluru, portBlair)).toBe("special");
    // A shop in the North-East sending out of it: still special.
    expect(zoneBetween(guwahati, bengaluru)).toBe("special");
    // Within the same special-zone city: local.
    expect(
      zoneBetween(guwahati, place("781005", "Kamrup Metropolitan", "Assam", null, "north-east")),
    ).toBe("local");
  });

  const places = fc.record({
    pin: fc.constant("100000"),
    district: fc.constantFrom("A", "B", "C"),
    state: fc.constantFrom("Karnataka", "Bihar", "Assam"),
    metro: fc.option(fc.constantFrom("Bengaluru", "Kolkata"), { nil: null }),
    specialZone: fc.option(fc.constantFrom(...SPECIAL_ZONES), { nil: null }),
  });

  it("property: symmetric, local with itself, special whenever either end is and they differ", () => {
    fc.assert(
      fc.property(places, places, (a, b) => {
        expect(zoneBetween(a, b)).toBe(zoneBetween(b, a));
        expect(zoneBetween(a, a)).toBe("local");
        const zone = zoneBetween(a, b);
        expect(ZONES).toContain(zone);
        if (zone !== "local" && (a.specialZone || b.specialZone)) expect(zone).toBe("special");
        if (zone === "metro") expect(a.metro && b.metro).toBeTruthy();
      }),
    );
  });
});

describe("the estimate", () => {
  const lead = {
    dispatchDays: 1,
    printLeadDays: 3,
    printLeadDaysByCategory: { "3D Characters": 5 },
  };

  it("ready days: dispatch time in stock, print lead time by category or the default", () => {
    expect(readyWorkingDays("in-stock", "3D Characters", lead)).toBe(1);
    expect(readyWorkingDays("made-to-order", "3D Characters", lead)).toBe(5);
    expect(readyWorkingDays("made-to-order", "3D Prints", lead)).toBe(3);
    expect(readyWorkingDays("custom", "Custom 3D Print", lead)).toBe(3);
    expect(itemKindOf({ quoteId: null, stockCount: 4 })).toBe("in-stock");
    expect(itemKindOf({ quoteId: null, stockCount: null })).toBe("made-to-order");
    expect(itemKindOf({ quoteId: "q", stockCount: 1 })).toBe("custom");
  });

  it("Wed 25 Nov from Bengaluru to Kolkata, made to order: ready Sat 28 Nov, there Wed 2 Dec (Thu 3 with a holiday)", () => {
    const e = estimateDelivery({
      today: "2026-11-25",
      from: bengaluru,
      to: kolkata,
      readyDays: 3,
      holidays: new Set(),
      cod: true,
    });
    expect(e).toMatchObject({ zone: "metro", readyBy: "2026-11-28", deliverBy: "2026-12-02" });
    expect(deliveryLine(e)).toBe("Delivers to 700016 (Kolkata, West Bengal) by Wed 2 Dec");
    const withHoliday = estimateDelivery({
      today: "2026-11-25",
      from: bengaluru,
      to: kolkata,
      readyDays: 3,
      holidays: new Set(["2026-12-01"]),
      cod: true,
    });
    expect(deliveryLine(withHoliday)).toBe(
      "Delivers to 700016 (Kolkata, West Bengal) by Thu 3 Dec",
    );
  });

  it("property: never before today + ready + transit calendar days, never on a Sunday", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 3000 })
          .map((n) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10)),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom(bengaluruSouth, mysuru, kolkata, patna, leh),
        (today, readyDays, to) => {
          const e = estimateDelivery({
            today,
            from: bengaluru,
            to,
            readyDays,
            holidays: new Set(),
            cod: false,
          });
          const minimum = new Date(
            Date.parse(today) + (readyDays + TRANSIT_DAYS[e.zone]) * 86_400_000,
          )
            .toISOString()
            .slice(0, 10);
          expect(e.deliverBy >= minimum).toBe(true);
          expect(e.readyBy >= today).toBe(true);
          expect(new Date(`${e.deliverBy}T00:00:00Z`).getUTCDay()).not.toBe(0);
        },
      ),
    );
  });

  it("the endpoint's query: a well-formed PIN, a product id or a kind, nothing else", () => {
    expect(estimateQuerySchema.safeParse({ pin: "700016" }).success).toBe(true);
    expect(estimateQuerySchema.safeParse({ pin: " 700016 ", kind: "custom" }).success).toBe(true);
    for (const pin of ["", "012345", "70001", "7000166", "70001a"]) {
      expect(estimateQuerySchema.safeParse({ pin }).success, pin).toBe(false);
    }
    const badProduct = estimateQuerySchema.safeParse({ pin: "700016", product: "x" });
    expect(badProduct.success).toBe(false);
    // Said in the shop's words, not the validator's ("Invalid UUID").
    expect(badProduct.error?.issues[0].message).toBe("Invalid product id");
    expect(estimateQuerySchema.safeParse({ pin: "700016", extra: "1" }).success).toBe(false);
  });

  it("a custom part's ready-by date from the print queue: a real day, only for a custom part", () => {
    const ok = { pin: "700016", kind: "custom", ready: "2026-12-04" };
    expect(estimateQuerySchema.safeParse(ok).success).toBe(true);
    expect(estimateQuerySchema.safeParse({ ...ok, ready: "2026-02-30" }).success).toBe(false);
    expect(estimateQuerySchema.safeParse({ ...ok, kind: "cart" }).success).toBe(false);
  });

  it("a later ready-by date from the print queue replaces the lead time; an earlier one doesn't", () => {
    const base = {
      today: "2026-11-25",
      from: bengaluru,
      to: kolkata,
      readyDays: 3,
      holidays: new Set(["2026-12-07"]),
      cod: false,
    };
    // Ready Fri 4 Dec, then 3 metro days: Sat 5, (Sun), Mon 7 a holiday, Tue 8, Wed 9.
    expect(estimateDelivery({ ...base, readyBy: "2026-12-04" })).toMatchObject({
      readyBy: "2026-12-04",
      deliverBy: "2026-12-09",
    });
    // A ready-by on a Sunday moves to Monday; one in the past counts from today's lead.
    expect(estimateDelivery({ ...base, readyBy: "2026-11-29" }).readyBy).toBe("2026-11-30");
    expect(estimateDelivery({ ...base, readyBy: "2026-11-20" }).readyBy).toBe("2026-11-28");
  });
});
