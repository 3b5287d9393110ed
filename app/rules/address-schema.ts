import { z } from "zod";
import { toMobile } from "./phone.ts";

/*
 * Delivery address form (SPEC.md §5): every field required; phone exactly 10 digits; PIN code 6
 * digits not starting with 0; the digit inputs strip everything else and stop at 6 and 10
 * characters. The same schema checks the browser's form and the server's action; the database's
 * constraints say the same again.
 */

export const ADDRESS_LABELS = ["Home", "Work", "Other"] as const;
export type AddressLabel = (typeof ADDRESS_LABELS)[number];

export const PHONE_DIGITS = 10;
export const PIN_DIGITS = 6;
export const DEFAULT_COUNTRY = "India";

export const addressText = {
  invalidPhone: "Please enter a valid 10-digit mobile number",
  invalidPin: "Please enter a valid 6-digit Indian PIN code",
  saveFailed: "Failed to save address",
  empty: "No addresses saved",
} as const;

/** Keeps only the digits of what was typed or pasted, up to `max` of them. */
export const digitsOnly = (value: string, max: number) => value.replace(/\D/g, "").slice(0, max);

const required = (what: string, max = 200) =>
  z
    .string({ error: `Please enter the ${what}.` })
    .trim()
    .min(1, `Please enter the ${what}.`)
    .max(max, `Please use at most ${max} characters.`);

export const addressSchema = z.object({
  label: z.enum(ADDRESS_LABELS, { error: "Please choose Home, Work or Other." }),
  name: required("full name", 120),
  line1: required("street address"),
  city: required("city", 100),
  state: required("state", 100),
  postalCode: z
    .string({ error: addressText.invalidPin })
    .trim()
    .regex(/^[1-9]\d{5}$/, addressText.invalidPin),
  country: required("country", 100),
  // "+91 98765 43210", "098765-43210"… are kept as their 10 digits (app/rules/phone.ts).
  phone: z.preprocess(
    toMobile,
    z.string({ error: addressText.invalidPhone }).regex(/^\d{10}$/, addressText.invalidPhone),
  ),
});
export type AddressInput = z.infer<typeof addressSchema>;

/** An address id from a form: a UUID, or nothing (anything else cannot be the user's). */
export const addressIdSchema = z.uuid();

/** A saved address as the pages show it (line2 is always null, SPEC.md §3). */
export type SavedAddress = AddressInput & {
  id: string;
  line2: null;
  isDefault: boolean;
  createdAt: string;
};
