import { describe, expect, it } from "vitest";
import { fieldErrors } from "./account-schemas.ts";
import {
  appliesToSummary,
  conditionsSummary,
  discountKindSummary,
  usesText,
} from "./discount-display.ts";
import {
  discountFormInput,
  discountSchema,
  discountText,
  discountToForm,
  istDateTimeText,
  offerEndDay,
  parseIstDateTime,
  submittedDiscountForm,
} from "./discount-schema.ts";

const base = {
  name: "Diwali 20% off",
  method: "code",
  code: "diwali20",
  kind: "percent",
  percent: "20",
  cap: "300",
  appliesTo: "order",
};

const errorsOf = (input: Record<string, unknown>) => {
  const r = discountSchema.safeParse(input);
  if (r.success) throw new Error("expected a refusal");
  return fieldErrors(r.error);
};

describe("discount form", () => {
  it("turns rupees, percent and India time into what the table stores", () => {
    const v = discountSchema.parse({
      ...base,
      appliesTo: "categories",
      categories: ["3D Characters", " Anime ", "3D Characters"],
      minSubtotal: "₹1,499.50",
      firstOrderOnly: "on",
      startsAt: "2026-12-01T00:00",
      endsAt: "2026-12-31T23:59",
      usageLimit: "100",
      perCustomerLimit: "1",
      combinesWithAutomatic: "on",
    });
    expect(v).toEqual({
      name: "Diwali 20% off",
      code: "DIWALI20",
      kind: "percent",
      percentBasisPoints: 2000,
      capPaise: 30_000,
      amountPaise: null,
      buyQuantity: null,
      getQuantity: null,
      appliesTo: "categories",
      categories: ["3D Characters", "Anime"],
      productIds: [],
      minSubtotalPaise: 149_950,
      firstOrderOnly: true,
      startsAt: new Date("2026-11-30T18:30:00Z"),
      endsAt: new Date("2026-12-31T18:29:00Z"),
      usageLimit: 100,
      perCustomerLimit: 1,
      combinesWithAutomatic: true,
    });
  });

  it("keeps only the amounts of the chosen kind", () => {
    const flat = discountSchema.parse({ ...base, kind: "flat", amount: "200", percent: "x" });
    expect(flat).toMatchObject({ amountPaise: 20_000, percentBasisPoints: null, capPaise: null });
    const ship = discountSchema.parse({ ...base, kind: "free_shipping", percent: "" });
    expect(ship).toMatchObject({
      kind: "free_shipping",
      percentBasisPoints: null,
      amountPaise: null,
    });
    const bogo = discountSchema.parse({
      ...base,
      kind: "buy_get",
      buyQuantity: "2",
      getQuantity: "1",
    });
    expect(bogo).toMatchObject({ buyQuantity: 2, getQuantity: 1, percentBasisPoints: null });
    expect(discountSchema.parse({ ...base, percent: "12.5%", cap: "" })).toMatchObject({
      percentBasisPoints: 1250,
      capPaise: null,
    });
  });

  it("an automatic offer has no code and never combines", () => {
    expect(
      discountSchema.parse({ ...base, method: "automatic", code: "", combinesWithAutomatic: "on" }),
    ).toMatchObject({ code: null, combinesWithAutomatic: false });
  });

  it("refuses a code that isn't 3 to 32 letters, digits or dashes", () => {
    for (const code of ["", "AB", "DIWALI 20", "DIWALI_20", "x".repeat(33), "DÍWALI"]) {
      expect(errorsOf({ ...base, code }).code, code).toBe(discountText.code);
    }
    expect(discountSchema.parse({ ...base, code: " first-200 " }).code).toBe("FIRST-200");
  });

  it("names each missing or bad field", () => {
    expect(errorsOf({})).toMatchObject({
      name: discountText.name,
      method: discountText.method,
      kind: discountText.kind,
      appliesTo: discountText.appliesTo,
    });
    expect(errorsOf({ ...base, percent: "0" }).percent).toBe(discountText.percent);
    expect(errorsOf({ ...base, percent: "100.01" }).percent).toBe(discountText.percent);
    expect(errorsOf({ ...base, percent: "20.125" }).percent).toBe(discountText.percent);
    expect(errorsOf({ ...base, cap: "-5" }).cap).toBe(discountText.cap);
    expect(errorsOf({ ...base, kind: "flat", amount: "" }).amount).toBe(discountText.amount);
    expect(errorsOf({ ...base, kind: "flat", amount: "0" }).amount).toBe(discountText.amount);
    expect(errorsOf({ ...base, kind: "flat", amount: "99999999999" }).amount).toBe(
      discountText.tooLarge,
    );
    expect(errorsOf({ ...base, kind: "buy_get", buyQuantity: "0" })).toMatchObject({
      buyQuantity: discountText.buy,
      getQuantity: discountText.get,
    });
    expect(errorsOf({ ...base, appliesTo: "categories" }).categories).toBe(discountText.categories);
    expect(errorsOf({ ...base, appliesTo: "products", productIds: ["nope"] }).productIds).toBe(
      discountText.products,
    );
    expect(errorsOf({ ...base, usageLimit: "1.5" }).usageLimit).toBe(discountText.usageLimit);
    expect(errorsOf({ ...base, perCustomerLimit: "0" }).perCustomerLimit).toBe(
      discountText.perCustomer,
    );
    expect(errorsOf({ ...base, name: "x".repeat(101) }).name).toBe(discountText.nameLong);
    expect(errorsOf({ ...base, name: "bad\u0000name" }).name).toBe(discountText.name);
    expect(errorsOf({ ...base, kind: "bogus" }).kind).toBe(discountText.kind);
  });

  it("the end must come after the start; dates are India time", () => {
    expect(
      errorsOf({ ...base, startsAt: "2026-12-31T10:00", endsAt: "2026-12-31T10:00" }).endsAt,
    ).toBe(discountText.endBeforeStart);
    expect(errorsOf({ ...base, startsAt: "2026-02-30T10:00" }).startsAt).toBe(discountText.date);
    expect(errorsOf({ ...base, endsAt: "tomorrow" }).endsAt).toBe(discountText.date);
    const open = discountSchema.parse({ ...base, startsAt: "", endsAt: "" });
    expect(open).toMatchObject({ startsAt: null, endsAt: null });
  });

  it("reads India time both ways, midnight included", () => {
    expect(parseIstDateTime("2026-01-01T00:00")?.toISOString()).toBe("2025-12-31T18:30:00.000Z");
    expect(parseIstDateTime("2026-01-01 05:30:15")?.toISOString()).toBe("2026-01-01T00:00:15.000Z");
    expect(parseIstDateTime("2026-13-01T00:00")).toBeNull();
    expect(parseIstDateTime("2026-04-31T00:00")).toBeNull();
    expect(parseIstDateTime("2026-01-01T24:00")).toBeNull();
    expect(istDateTimeText(new Date("2025-12-31T18:30:00Z"))).toBe("2026-01-01T00:00");
    expect(istDateTimeText(null)).toBe("");
  });

  it("a stored discount fills the form it was saved from", () => {
    const input = {
      ...base,
      kind: "percent",
      percent: "12.5",
      cap: "299.50",
      appliesTo: "products",
      productIds: ["0b6f6d1e-4c1a-4c7e-9d55-5d0f7e2a1b11"],
      minSubtotal: "999",
      startsAt: "2026-12-01T09:00",
      endsAt: "2026-12-31T23:59",
      usageLimit: "5",
      perCustomerLimit: "",
      firstOrderOnly: "on",
    };
    const form = discountToForm(discountSchema.parse(input));
    expect(form).toMatchObject({
      method: "code",
      code: "DIWALI20",
      percent: "12.5",
      cap: "299.50",
      minSubtotal: "999.00",
      startsAt: "2026-12-01T09:00",
      endsAt: "2026-12-31T23:59",
      usageLimit: "5",
      perCustomerLimit: "",
      firstOrderOnly: true,
      productIds: ["0b6f6d1e-4c1a-4c7e-9d55-5d0f7e2a1b11"],
    });
    expect(discountSchema.parse({ ...form, firstOrderOnly: "on" })).toEqual(
      discountSchema.parse(input),
    );
  });

  it("reads a submitted form's lists in full and shows back what was typed", () => {
    const fd = new FormData();
    fd.append("name", "Mixed");
    fd.append("categories", "Anime");
    fd.append("categories", "Fantasy");
    fd.append("name", "second name ignored");
    fd.append("kind", "bogus");
    fd.append("firstOrderOnly", "on");
    const input = discountFormInput(fd);
    expect(input).toEqual({
      name: "Mixed",
      categories: ["Anime", "Fantasy"],
      kind: "bogus",
      firstOrderOnly: "on",
    });
    expect(submittedDiscountForm(input)).toMatchObject({
      name: "Mixed",
      kind: "percent",
      categories: ["Anime", "Fantasy"],
      firstOrderOnly: true,
      combinesWithAutomatic: false,
    });
  });
});

describe("how a discount is described", () => {
  const none = { percentBasisPoints: null, capPaise: null, amountPaise: null };
  it("says what it takes off", () => {
    expect(
      discountKindSummary({
        ...none,
        kind: "percent",
        percentBasisPoints: 2000,
        capPaise: 30_000,
        buyQuantity: null,
        getQuantity: null,
      }),
    ).toBe("20% off, up to ₹300");
    expect(
      discountKindSummary({
        ...none,
        kind: "flat",
        amountPaise: 20_000,
        buyQuantity: null,
        getQuantity: null,
      }),
    ).toBe("₹200 off");
    expect(
      discountKindSummary({
        ...none,
        kind: "flat",
        amountPaise: 123_450,
        buyQuantity: null,
        getQuantity: null,
      }),
    ).toBe("₹1,234.50 off");
    expect(
      discountKindSummary({ ...none, kind: "free_shipping", buyQuantity: null, getQuantity: null }),
    ).toBe("Free shipping");
    expect(discountKindSummary({ ...none, kind: "buy_get", buyQuantity: 2, getQuantity: 1 })).toBe(
      "Buy 2, get 1 free",
    );
  });

  it("says what it applies to, and its uses", () => {
    expect(appliesToSummary({ appliesTo: "order", categories: [], productIds: [] })).toBe(
      "Whole order",
    );
    expect(
      appliesToSummary({
        appliesTo: "categories",
        categories: ["3D Characters", "Anime"],
        productIds: [],
      }),
    ).toBe("3D Characters, Anime");
    expect(
      appliesToSummary({ appliesTo: "products", categories: [], productIds: ["a", "b"] }),
    ).toBe("2 products");
    expect(
      conditionsSummary({ minSubtotalPaise: 99_900, firstOrderOnly: true, perCustomerLimit: 1 }),
    ).toBe("From ₹999 · First order · 1 per customer");
    expect(
      conditionsSummary({ minSubtotalPaise: null, firstOrderOnly: false, perCustomerLimit: null }),
    ).toBe("");
    expect(usesText(3, 100)).toBe("3 / 100");
    expect(usesText(1234, null)).toBe("1,234");
  });

  it("names the India day an offer ends on", () => {
    const now = new Date("2026-11-25T06:00:00Z");
    // 31 Dec 23:59 IST
    expect(offerEndDay(new Date("2026-12-31T18:29:00Z"), now)).toBe("31 Dec");
    // Midnight starting 1 Jan (IST) ends on 31 Dec.
    expect(offerEndDay(new Date("2026-12-31T18:30:00Z"), now)).toBe("31 Dec");
    expect(offerEndDay(new Date("2027-01-05T10:00:00Z"), now)).toBe("5 Jan 2027");
  });
});

describe("discount form refusals", () => {
  it("names every mistake at once, not one per submission", () => {
    const errors = errorsOf({ ...base, name: "", code: "no spaces", percent: "" });
    expect(errors).toMatchObject({
      name: discountText.name,
      code: discountText.code,
      percent: discountText.percent,
    });
  });
});
