import { describe, expect, it } from "vitest";
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
    ).toEqual({ name: "Diwali Offer", description: "Lights", discount: null, cta: null });
    expect(promotionSchema.parse({ name: "X" })).toEqual({
      name: "X",
      description: "",
      discount: null,
      cta: null,
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
