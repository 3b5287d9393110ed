import { z } from "zod";

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

export const promotionSchema = z.object({
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
});

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
};
