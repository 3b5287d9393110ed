import { data } from "react-router";
import { cleanJson, cleanText, hasControlCharacters, UNUSUAL_CHARACTERS } from "~/rules/text.ts";
import { formBodyBytes } from "./body-limits.server.ts";
import { readBodyLimited } from "./read-body.server.ts";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

const TOO_LARGE = "This form is too large to send. Please shorten it and try again.";

/**
 * An action's form body. Anything that isn't a form (JSON, text, a broken body) is answered with
 * a 4xx, never a 500. The body is read up to `limit` (413 beyond; the server refuses larger ones
 * before they reach the app, this is the same rule for callers that skip it), and every text
 * field comes back in Unicode's composed form; a field with a control character (NUL, which
 * PostgreSQL refuses, among them) is answered with 400 and a message saying so (issue 20).
 */
export async function readForm(request: Request, limit = formBodyBytes()): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!FORM_TYPES.some((t) => type.startsWith(t))) {
    throw data({ ok: false, error: "Please submit the form again." }, { status: 415 });
  }
  let parsed: FormData;
  try {
    const body = await readBodyLimited(request, limit);
    if (body === null) throw data({ ok: false, error: TOO_LARGE }, { status: 413 });
    parsed = await new Response(body as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": request.headers.get("content-type") ?? type },
    }).formData();
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) throw error;
    throw data({ ok: false, error: "Please submit the form again." }, { status: 400 });
  }
  const form = new FormData();
  for (const [key, value] of parsed) {
    const name = cleanText(key);
    const cleaned = typeof value === "string" ? cleanText(value) : value;
    if (name === null || cleaned === null) {
      throw data({ ok: false, error: UNUSUAL_CHARACTERS }, { status: 400 });
    }
    form.append(name, cleaned);
  }
  return form;
}

/**
 * A JSON body, read up to the form limit, with every string cleaned as readForm does; null when
 * it isn't JSON. Too large: 413; a control character: 400.
 */
export async function readJson(request: Request): Promise<unknown> {
  const body = await readBodyLimited(request, formBodyBytes()).catch(() => undefined);
  if (body === null) throw data({ ok: false, error: TOO_LARGE }, { status: 413 });
  if (body === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
  const cleaned = cleanJson(value);
  if (!cleaned) throw data({ ok: false, error: UNUSUAL_CHARACTERS }, { status: 400 });
  return cleaned.value;
}

/**
 * A query string parameter as the shop reads it: composed Unicode, or null when missing. A
 * control character can't get here through the server (the root middleware answers 400 first),
 * but a caller that skips it gets null too.
 */
export function queryParam(url: URL | string, name: string): string | null {
  const value = (typeof url === "string" ? new URL(url) : url).searchParams.get(name);
  if (value === null || hasControlCharacters(value)) return null;
  return value.normalize("NFC");
}
