import { env } from "~/config/env.server.ts";
import { MAX_UPLOAD_BYTES } from "~/rules/admin-uploads.ts";
import { MAX_MODEL_BYTES } from "~/rules/model3d/index.ts";
import { MAX_IMPORT_BYTES } from "~/rules/product-csv.ts";

/*
 * The largest request body each kind of route reads (issue 20). The server (server/index.ts)
 * refuses a larger one with 413 while it arrives — a declared Content-Length at once, a chunked
 * body as soon as its count passes the limit — so no route ever buffers more than its class
 * allows. Forms and JSON, Better Auth's endpoints included, are small; the upload routes keep
 * the limits they had, with room for the multipart framing.
 */

/** Room for a form's other fields and the multipart framing around a file. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/** Forms and JSON bodies: the longest text field is a few thousand characters (FORM_BODY_KB). */
export const DEFAULT_FORM_BODY_BYTES = 256 * 1024;

/** The configured form limit (FORM_BODY_KB), or the default before the configuration is read. */
export function formBodyBytes(): number {
  try {
    return env().formBodyBytes;
  } catch {
    return DEFAULT_FORM_BODY_BYTES;
  }
}

/** Gateways' notifications are a few kilobytes. */
export const WEBHOOK_BODY_BYTES = 64 * 1024;

const UPLOAD_ROUTES: ReadonlyArray<[string, number]> = [
  ["/api/quotes/upload", MAX_MODEL_BYTES],
  ["/api/admin/uploads", MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES],
  ["/admin/promotions", MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES],
  ["/admin/import", MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES],
];

/**
 * The body limit for a request path. A React Router data request (`/x.data`, `/_.data`) is the
 * same route as its page.
 */
export function bodyLimitFor(pathname: string, formBytes = formBodyBytes()): number {
  const path = pathname.replace(/\/?_?\.data$/, "").replace(/\/+$/, "") || "/";
  if (path === "/api/payment-webhook") return WEBHOOK_BODY_BYTES;
  for (const [route, limit] of UPLOAD_ROUTES) if (path === route) return limit;
  return formBytes;
}
