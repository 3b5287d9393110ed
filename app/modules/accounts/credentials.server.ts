import { SIGN_IN_THROTTLED_MESSAGE } from "~/lib/rate-limit.server.ts";
import { accountText, displayName, type RegisterInput } from "~/rules/account-schemas.ts";
import { type Auth, CLIENT_IP_HEADER } from "./auth.server.ts";

/*
 * Registration, sign-in, verification and password reset for the shop's own forms.
 *
 * The form actions send each call through Better Auth's HTTP handler (`auth.handler`) rather
 * than calling `auth.api.*` directly: the handler is where Better Auth applies its rate limiter
 * and its origin check, and a direct call skips both. Going through it, a form POST to /auth is
 * limited and origin-checked exactly like a POST to /api/auth/sign-in/email, and the session
 * cookie comes back as Set-Cookie headers for the page's response.
 */

/** Where the verification link lands: the sign-in page, with a success message. */
export const VERIFIED_CALLBACK = "/auth?verified=1";

/**
 * Where a verification link lands: the sign-in page, which then goes on to the page the customer
 * was on when they registered (`returnTo`, already checked to be a path of this site).
 */
export function verifiedCallback(returnTo?: string | null): string {
  return returnTo && returnTo !== "/"
    ? `${VERIFIED_CALLBACK}&redirectTo=${encodeURIComponent(returnTo)}`
    : VERIFIED_CALLBACK;
}
/** Where the password reset link lands (with `?token=…`, or `?error=INVALID_TOKEN`). */
export const RESET_PASSWORD_PAGE = "/reset-password";

/** The browser's headers that Better Auth reads: session cookie, origin checks, client IP. */
const FORWARDED_HEADERS = [
  "cookie",
  "origin",
  "referer",
  "user-agent",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  CLIENT_IP_HEADER,
];

type AuthCall =
  | { ok: true; status: number; body: unknown; setCookies: string[] }
  | { ok: false; status: number; code?: string; message?: string; setCookies: string[] };

async function callAuth(
  auth: Auth,
  request: Request,
  endpoint: `/${string}`,
  body: Record<string, unknown>,
): Promise<AuthCall> {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const res = await auth.handler(
    new Request(new URL(`/api/auth${endpoint}`, request.url), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const setCookies = res.headers.getSetCookie();
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, status: res.status, body: json, setCookies };
  const error = (json ?? {}) as { code?: unknown; message?: unknown };
  return {
    ok: false,
    status: res.status,
    code: typeof error.code === "string" ? error.code : undefined,
    message: typeof error.message === "string" ? error.message : undefined,
    setCookies,
  };
}

/**
 * Better Auth refused the browser's Origin. With PUBLIC_URL set the shop has one address and the
 * page was opened at another (127.0.0.1, a LAN address): say which address to use, rather than a
 * raw "Invalid origin" or "try again in a moment", which never works.
 */
function wrongAddress(auth: Auth, res: AuthCall): string | null {
  if (res.ok || (res.code !== "INVALID_ORIGIN" && res.code !== "MISSING_OR_NULL_ORIGIN")) {
    return null;
  }
  // Without PUBLIC_URL every address of the shop is its own; a refusal is another site's page.
  const { baseURL, trustedOrigins } = auth.options;
  if (typeof trustedOrigins === "function") return null;
  return typeof baseURL === "string" ? accountText.wrongAddress(new URL(baseURL).origin) : null;
}

const cookieHeaders = (setCookies: string[]) => {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
};

export type RegisterResult = { ok: true } | { ok: false; message: string };

/**
 * Creates the account (the profile follows from Better Auth's user hook) and sends the
 * verification e-mail. No session is started: the customer signs in once verified. For an
 * e-mail that already has an account Better Auth answers exactly as for a new one.
 */
export async function register(
  auth: Auth,
  request: Request,
  input: RegisterInput,
  returnTo?: string | null,
): Promise<RegisterResult> {
  const res = await callAuth(auth, request, "/sign-up/email", {
    name: displayName(input),
    email: input.email,
    password: input.password,
    callbackURL: verifiedCallback(returnTo),
  });
  if (res.ok) return { ok: true };
  return {
    ok: false,
    message: wrongAddress(auth, res) ?? (res.message || accountText.registrationFailed),
  };
}

export type SignInResult =
  | { status: "signed-in"; headers: Headers }
  | { status: "unverified" }
  | { status: "incorrect" }
  /** Too many tries (the shop's sign-in counts or Better Auth's flood guard): wait or reset. */
  | { status: "throttled"; message: string }
  | { status: "failed"; message?: string };

/**
 * Signs in with e-mail and password. An unverified account gets a fresh verification e-mail
 * (Better Auth's sendOnSignIn) and no session.
 */
export async function signIn(
  auth: Auth,
  request: Request,
  input: { email: string; password: string },
  returnTo?: string | null,
): Promise<SignInResult> {
  const res = await callAuth(auth, request, "/sign-in/email", {
    email: input.email,
    password: input.password,
    // Used for the verification link that an unverified sign-in sends.
    callbackURL: verifiedCallback(returnTo),
  });
  if (res.ok) return { status: "signed-in", headers: cookieHeaders(res.setCookies) };
  if (res.code === "EMAIL_NOT_VERIFIED") return { status: "unverified" };
  if (res.code === "INVALID_EMAIL_OR_PASSWORD") return { status: "incorrect" };
  if (res.status === 429) {
    return { status: "throttled", message: res.message || SIGN_IN_THROTTLED_MESSAGE };
  }
  return { status: "failed", message: wrongAddress(auth, res) ?? undefined };
}

export type SendResult = { ok: true } | { ok: false; message: string };

/** Sends another verification link; unknown or verified e-mails get the same answer. */
export async function resendVerification(
  auth: Auth,
  request: Request,
  email: string,
  returnTo?: string | null,
): Promise<SendResult> {
  const res = await callAuth(auth, request, "/send-verification-email", {
    email,
    callbackURL: verifiedCallback(returnTo),
  });
  return res.ok
    ? { ok: true }
    : { ok: false, message: wrongAddress(auth, res) ?? (res.message || accountText.tryAgain) };
}

/** Sends a password reset link; the answer does not say whether the account exists. */
export async function requestPasswordReset(
  auth: Auth,
  request: Request,
  email: string,
): Promise<SendResult> {
  const res = await callAuth(auth, request, "/request-password-reset", {
    email,
    redirectTo: RESET_PASSWORD_PAGE,
  });
  return res.ok
    ? { ok: true }
    : { ok: false, message: wrongAddress(auth, res) ?? (res.message || accountText.tryAgain) };
}

export type ResetResult = { ok: true } | { ok: false; invalidToken: boolean; message: string };

/** Sets the new password; Better Auth then revokes every session of the account. */
export async function resetPassword(
  auth: Auth,
  request: Request,
  input: { token: string; password: string },
): Promise<ResetResult> {
  const res = await callAuth(auth, request, "/reset-password", {
    token: input.token,
    newPassword: input.password,
  });
  if (res.ok) return { ok: true };
  const invalidToken = res.code === "INVALID_TOKEN" || res.code === "USER_NOT_FOUND";
  return {
    ok: false,
    invalidToken,
    message: invalidToken
      ? "This reset link is invalid or has expired. Please ask for a new one."
      : (wrongAddress(auth, res) ?? (res.message || accountText.tryAgain)),
  };
}
