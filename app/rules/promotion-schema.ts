import { z } from "zod";
import type { PromotionOffer } from "./promotion-offer.ts";

/*
 * An admin's promotion (SPEC.md §3 "Promotion": name (title), description, image, discount as
 * free text, CTA). Shared by the form and the server. Blank optional fields are stored as null.
 */

export const PROMOTION_LIMITS = {
  name: 100,
  description: 600,
  discount: 40,
  cta: 40,
} as const;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? "").trim())
    .pipe(z.string().max(max, `${label} can be at most ${max} characters.`))
    .transform((s) => (s === "" ? null : s));

export const promotionSchema = z
  .object({
    name: z
      .string({ error: "Please enter a name." })
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, "Please enter a name.")
          .max(PROMOTION_LIMITS.name, `Name can be at most ${PROMOTION_LIMITS.name} characters.`),
      ),
    description: z
      .string()
      .optional()
      .transform((s) => (s ?? "").trim())
      .pipe(
        z
          .string()
          .max(
            PROMOTION_LIMITS.description,
            `Description can be at most ${PROMOTION_LIMITS.description} characters.`,
          ),
      ),
    discount: optionalText(PROMOTION_LIMITS.discount, "Discount"),
    cta: optionalText(PROMOTION_LIMITS.cta, "Button text"),
    /** The discount the card carries ("" or absent: none). */
    discountId: z
      .string()
      .optional()
      .transform((s) => (s ?? "").trim())
      .refine(
        (s) =>
          s === "" || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
        "Choose one of the discounts, or none.",
      )
      .transform((s) => (s === "" ? null : s.toLowerCase())),
    /** When that discount ends or is used up: hide the card, or say so on it (the default). */
    whenDiscountEnds: z
      .enum(["hide", "say"], { error: "Choose what the card does when the discount ends." })
      .optional()
      .transform((v) => v === "hide"),
  })
  .transform(({ whenDiscountEnds, ...rest }) => ({
    ...rest,
    hideWhenDiscountEnds: whenDiscountEnds,
  }));

export type PromotionInput = z.infer<typeof promotionSchema>;

/** Field → first message, for showing beside each input. */
export function promotionErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

export type LivePromotion = {
  id: string;
  name: string;
  description: string;
  image: string | null;
  discount: string | null;
  cta: string | null;
  offer: PromotionOffer | null;
};
