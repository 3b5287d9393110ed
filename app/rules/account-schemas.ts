import { z } from "zod";
import { indianMobile } from "./phone.ts";
import { hasControlCharacters } from "./text.ts";

/*
 * Account forms (SPEC.md §2 Auth, §5 Validation): one zod schema per form, parsed by the browser
 * before it submits and again by the server action, so both say the same thing. Customer-facing
 * texts are the spec's, verbatim.
 */

/** Better Auth's password bounds (app/modules/accounts/auth.server.ts). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const accountText = {
  passwordsDoNotMatch: "Passwords do not match",
  registrationFailed: "Registration failed",
  verifyEmailTitle: "Verify your email",
  notVerifiedTitle: "Email not verified",
  incorrectTitle: "Incorrect email or password",
  incorrectDescription: "The email or password you entered is incorrect.",
  signInFailedTitle: "Sign in failed",
  signInFailedDescription: "We couldn't sign you in. Please try again in a moment.",
  genericLoginHelp:
    "Please check your email and password and try again. If the problem persists, you may reset your password or contact support.",
  resendSentTitle: "Verification email sent",
  resendSentDescription: "Please check your inbox and spam folder for the verification link.",
  resendFailedTitle: "Failed to send verification email",
  tryAgain: "Please try again.",
  resetSentTitle: "Password reset sent",
  resetFailedTitle: "Failed to send reset email",
  signedOut: "Signed out",
  profileSaved: "Profile saved",
  saveFailed: "Failed to save",
  nameRequiredTitle: "Name required",
  nameRequiredDescription: "Please enter your full name.",
  invalidPhoneTitle: "Invalid phone",
  invalidPhoneDescription: "Phone number must be 10 digits.",
  /** PUBLIC_URL is set and the shop was opened at another address (its Origin is refused). */
  wrongAddress: (address: string) =>
    `Signing in and registering work only at ${address}. Please open the shop there and try again.`,
} as const;

const trimmed = (message: string) => z.string({ error: message }).trim().min(1, message);

const email = z
  .string({ error: "Please enter your email address." })
  .trim()
  .min(1, "Please enter your email address.")
  .pipe(z.email("Please enter a valid email address."));

const password = z
  .string({ error: "Please enter a password." })
  .min(1, "Please enter a password.")
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

const confirmPassword = z
  .string({ error: "Please confirm your password." })
  .min(1, "Please confirm your password.");

export const registerSchema = z
  .object({
    firstName: trimmed("Please enter your first name.").max(60),
    lastName: trimmed("Please enter your last name.").max(60),
    email,
    password,
    confirmPassword,
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: accountText.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** The account's display name: "First Last". */
export const displayName = (input: Pick<RegisterInput, "firstName" | "lastName">) =>
  `${input.firstName} ${input.lastName}`.trim();

export const loginSchema = z.object({
  email,
  // Any non-empty password may be tried; its length rules apply when it is chosen.
  password: z
    .string({ error: "Please enter your password." })
    .min(1, "Please enter your password."),
});

export const resendVerificationSchema = z.object({ email });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, "This reset link is invalid or has expired."),
    password,
    confirmPassword,
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: accountText.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });

/** The longest account name: registration's "First Last", each part at most 60. */
export const ACCOUNT_NAME_MAX = 121;

/**
 * The account's name wherever it is set, Better Auth's own sign-up endpoint included (issue 20):
 * it is shown on reviews and written into the shop's e-mails, so it is a name, not a message —
 * short, no control characters, no links or markup.
 */
export const accountNameSchema = z
  .string({ error: accountText.nameRequiredDescription })
  .trim()
  .min(1, accountText.nameRequiredDescription)
  .max(ACCOUNT_NAME_MAX, `Please use at most ${ACCOUNT_NAME_MAX} characters for your name.`)
  .refine(
    (v) => !hasControlCharacters(v) && !/[\t\n\r]/.test(v),
    "Please enter your name as plain text.",
  )
  .refine(
    (v) => !/[<>]|:\/\/|www\./i.test(v),
    "Please enter your name without links or angle brackets.",
  )
  .transform((v) => v.normalize("NFC"));

/** Profile (SPEC.md §5): name required after trim; phone optional, else exactly 10 digits. */
export const profileSchema = z.object({
  // Shown publicly on reviews and written into e-mails: the same rules as at registration.
  name: accountNameSchema,
  // Written as people write it ("+91 98765 43210"), kept as the 10 digits (app/rules/phone.ts).
  phone: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? (indianMobile(v) ?? v) : null))
    .refine((v) => v === null || /^\d{10}$/.test(v), accountText.invalidPhoneDescription),
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** Field name → first message, for showing beside each input. */
export type FieldErrors = Partial<Record<string, string>>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** FormData → plain object of its string fields (files and repeated keys are not used here). */
export function formFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") out[key] ??= value;
  return out;
}

/**
 * A redirect target is honoured only when it is a path on this site: it starts with one "/",
 * not "//" or "/\" (which browsers treat as another host), and has no control characters.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, "http://layerkart.invalid");
    if (url.origin !== "http://layerkart.invalid") return fallback;
    const target = `${url.pathname}${url.search}${url.hash}`;
    // Normalising can turn "/.//evil" or "/%2e//evil" into "//evil": check the result too.
    if (target.startsWith("//") || target.startsWith("/\\")) return fallback;
    return target;
  } catch {
    return fallback;
  }
}

/** An admin granting or revoking another account's admin role (/admin/users). */
export const userChangeSchema = z.object({
  intent: z.enum(["grant", "revoke"], { error: "Unknown request." }),
  userId: z.string({ error: "Choose a user." }).min(1, "Choose a user.").max(200, "Choose a user."),
});
