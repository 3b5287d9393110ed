import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CourierOffer, pickCourier } from "./courier-choice.ts";

const offers: CourierOffer[] = [
  { courierId: "10", courierName: "Delhivery Surface", paise: 8250, days: 5, codAvailable: true },
  { courierId: "33", courierName: "Xpressbees Surface", paise: 7400, days: 6, codAvailable: true },
  { courierId: "43", courierName: "Blue Dart Air", paise: 7000, days: 2, codAvailable: false },
];

describe("pickCourier", () => {
  it("charges the rate table in the table mode", () => {
    expect(pickCourier(offers, { mode: "table", preferred: "" }, false)).toBeNull();
  });

  it("picks the cheapest, and among couriers that collect cash for COD", () => {
    expect(pickCourier(offers, { mode: "cheapest", preferred: "" }, false)?.courierId).toBe("43");
    expect(pickCourier(offers, { mode: "cheapest", preferred: "" }, true)?.courierId).toBe("33");
  });

  it("picks the preferred courier by name, whatever its case and spacing", () => {
    const pick = pickCourier(offers, { mode: "preferred", preferred: "delhivery  SURFACE" }, false);
    expect(pick?.courierId).toBe("10");
  });

  it("falls back to the cheapest when the preferred courier doesn't serve the parcel", () => {
    expect(pickCourier(offers, { mode: "preferred", preferred: "Ekart" }, false)?.courierId).toBe(
      "43",
    );
    // Blue Dart doesn't collect cash: a COD order goes with the cheapest that does.
    expect(
      pickCourier(offers, { mode: "preferred", preferred: "Blue Dart Air" }, true)?.courierId,
    ).toBe("33");
  });

  it("answers the table when no courier can take the parcel", () => {
    expect(pickCourier([], { mode: "cheapest", preferred: "" }, false)).toBeNull();
    expect(pickCourier([offers[2]], { mode: "cheapest", preferred: "" }, true)).toBeNull();
  });

  it("never picks a courier dearer than the cheapest unless it is the preferred one", () => {
    const offer = fc.record({
      courierId: fc.string(),
      courierName: fc.constantFrom("A", "B", "C"),
      paise: fc.nat(100_000),
      days: fc.option(fc.nat(10)),
      codAvailable: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(offer), fc.constantFrom("A", "Z"), fc.boolean(), (list, name, cod) => {
        const pick = pickCourier(list, { mode: "preferred", preferred: name }, cod);
        const usable = list.filter((o) => !cod || o.codAvailable);
        if (usable.length === 0) return pick === null;
        const min = Math.min(...usable.map((o) => o.paise));
        return pick !== null && (pick.courierName === name || pick.paise === min);
      }),
    );
  });
});
