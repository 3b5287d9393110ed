import { describe, expect, it } from "vitest";
import { offerEnded, promotionShows } from "./promotion-offer.ts";
import { PROMOTION_LIMITS, promotionErrors, promotionSchema } from "./promotion-schema.ts";

describe("promotion form", () => {
  it("trims, and stores blank optional fields as null", () => {
    expect(
      promotionSchema.parse({
        name: "  Diwali Offer ",
        description: " Lights ",
        discount: " ",
        cta: "",
      }),
    ).toEqual({
      name: "Diwali Offer",
      description: "Lights",
      discount: null,
      cta: null,
      discountId: null,
      hideWhenDiscountEnds: false,
    });
    expect(promotionSchema.parse({ name: "X" })).toEqual({
      name: "X",
      description: "",
      discount: null,
      cta: null,
      discountId: null,
      hideWhenDiscountEnds: false,
    });
  });

  it("needs a name and keeps each field within its limit", () => {
    const r = promotionSchema.safeParse({
      name: "  ",
      discount: "x".repeat(PROMOTION_LIMITS.discount + 1),
      cta: "y".repeat(PROMOTION_LIMITS.cta + 1),
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(promotionErrors(r.error)).toEqual({
      name: "Please enter a name.",
      discount: `Discount can be at most ${PROMOTION_LIMITS.discount} characters.`,
      cta: `Button text can be at most ${PROMOTION_LIMITS.cta} characters.`,
    });
    expect(promotionSchema.safeParse({}).success).toBe(false);
  });
});

describe("a promotion's discount", () => {
  const id = "0B6F6D1E-4C1A-4C7E-9D55-5D0F7E2A1B11";
  it("carries one discount or none, and what its card does when it ends", () => {
    expect(
      promotionSchema.parse({ name: "X", discountId: id, whenDiscountEnds: "hide" }),
    ).toMatchObject({ discountId: id.toLowerCase(), hideWhenDiscountEnds: true });
    expect(
      promotionSchema.parse({ name: "X", discountId: " ", whenDiscountEnds: "say" }),
    ).toMatchObject({ discountId: null, hideWhenDiscountEnds: false });
  });

  it("refuses what isn't a discount's id or a known choice", () => {
    const r = promotionSchema.safeParse({
      name: "X",
      discountId: "DIWALI20",
      whenDiscountEnds: "x",
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(promotionErrors(r.error)).toEqual({
      discountId: "Choose one of the discounts, or none.",
      whenDiscountEnds: "Choose what the card does when the discount ends.",
    });
  });

  it("a card's discount has ended when it said so, or once its end has passed", () => {
    const offer = {
      code: "DIWALI20",
      endsAt: "2026-12-31T18:29:00.000Z",
      endsLabel: "Ends 31 Dec",
      startsLabel: null,
      ended: false,
      hideWhenEnded: true,
    };
    const before = Date.parse("2026-12-31T18:28:59Z");
    const at = Date.parse("2026-12-31T18:29:00Z");
    expect(offerEnded(offer, before)).toBe(false);
    expect(offerEnded(offer, at)).toBe(true);
    expect(offerEnded({ ...offer, endsAt: null, ended: true }, before)).toBe(true);
    expect(promotionShows({ offer }, before)).toBe(true);
    expect(promotionShows({ offer }, at)).toBe(false);
    expect(promotionShows({ offer: { ...offer, hideWhenEnded: false } }, at)).toBe(true);
    expect(promotionShows({ offer: null }, at)).toBe(true);
  });
});
