import { randomBytes } from "node:crypto";
import { accountText } from "~/rules/account-schemas.ts";
import { checkoutText } from "~/rules/orders.ts";

/*
 * One-shot messages that survive a redirect (e.g. "Signed out" after POST /sign-out → /). The
 * cookie names a message from the fixed list below, never free text, and lives for a minute; the
 * root loader reads it once and clears it in the same response.
 */

const COOKIE = "lk_flash";

const messages = {
  "signed-out": { title: accountText.signedOut },
  "no-addresses": {
    title: checkoutText.noAddresses,
    description: checkoutText.noAddressesDescription,
  },
  "order-placed": {
    title: "Order placed",
    description: "Thank you! We'll e-mail you when it ships. Pay in cash on delivery.",
  },
} as const satisfies Record<string, { title: string; description?: string }>;

export type FlashKind = keyof typeof messages;

/** What the page shows; `id` changes every time, so the same message twice toasts twice. */
export type Flash = { id: string; title: string; description?: string };

/** The Set-Cookie value that carries `kind` to the next page. */
export function flashCookie(kind: FlashKind, secure: boolean): string {
  const value = `${kind}.${randomBytes(6).toString("hex")}`;
  return `${COOKIE}=${value}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

function cookieValue(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === COOKIE) return rest.join("=");
  }
  return undefined;
}

/**
 * The pending message, if any, and the headers that clear it. Spread `headers` into the
 * response of the loader that shows the message.
 */
export function readFlash(request: Request): { flash: Flash | null; headers: Headers } {
  const headers = new Headers();
  const raw = cookieValue(request.headers.get("cookie"));
  if (raw === undefined) return { flash: null, headers };
  headers.append("Set-Cookie", `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  const match = /^([a-z-]+)\.([0-9a-f]{12})$/.exec(raw);
  const kind = match?.[1];
  if (!match || !kind || !Object.hasOwn(messages, kind)) return { flash: null, headers };
  const message: { title: string; description?: string } = messages[kind as FlashKind];
  return { flash: { id: match[2], ...message }, headers };
}
