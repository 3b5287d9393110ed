import { z } from "zod";
import { indianMobile } from "./phone.ts";

/*
 * Input schemas of the storefront's forms, shared by the form (browser) and the action (server).
 * The messages are the spec's (SPEC.md §5, §8).
 */

export const REQUIRED_FIELDS = {
  title: "Validation Error",
  description: "Please fill in all required fields.",
};
export const INVALID_EMAIL = {
  title: "Invalid Email",
  description: "Please enter a valid email address.",
};

const required = (max: number) =>
  z
    .string({ error: REQUIRED_FIELDS.description })
    .trim()
    .min(1, REQUIRED_FIELDS.description)
    .max(max);

export const contactSchema = z.object({
  firstName: required(100),
  lastName: required(100),
  email: required(254).refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), INVALID_EMAIL.description),
  subject: required(200),
  message: required(5000),
});
export type ContactInput = z.infer<typeof contactSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

export const promotionInterestSchema = z.object({
  promotionId: z.uuid(),
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  email: optionalText(254).refine((v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), {
    message: INVALID_EMAIL.description,
  }),
  // An Indian mobile number, written as people write it, kept as its 10 digits (app/rules/phone.ts).
  phone: optionalText(20)
    .transform((v) => (v === undefined ? v : (indianMobile(v) ?? v)))
    .refine((v) => v === undefined || /^\d{10}$/.test(v), {
      message: "Please enter a valid 10-digit mobile number",
    }),
});
export type PromotionInterestInput = z.infer<typeof promotionInterestSchema>;

export const newsletterSchema = z.object({
  email: z
    .string({ error: "Please enter your email address." })
    .trim()
    .toLowerCase()
    .min(1, "Please enter your email address.")
    .max(254)
    .pipe(z.email(INVALID_EMAIL.description)),
});
