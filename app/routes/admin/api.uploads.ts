import { log } from "~/lib/log.server.ts";
import {
  discardProductUpload,
  ProductInputError,
  storeProductUpload,
} from "~/modules/catalog/admin-products.server.ts";
import { deleteImageVariants, ImageRejectedError } from "~/modules/catalog/images.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { MAX_UPLOAD_BYTES, uploadText } from "~/rules/admin-uploads.ts";
import { isUuid } from "~/rules/ids.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.uploads";

/*
 * /api/admin/uploads: admin image uploads (SPEC.md §2, §7 File storage).
 *
 * POST multipart/form-data {scope: "product", productId, file} → {url, storagePath}. The file is
 * judged by its content (JPEG, PNG, WebP, AVIF), at most MAX_UPLOAD_BYTES (413 beyond), stored
 * re-encoded without metadata as responsive variants under products/{productId}/.
 *
 * DELETE, or POST intent=delete, with one or more storagePath fields: removes uploads that were
 * never saved with their product (the form's Cancel, a new image removed before saving, a page
 * left with unsaved uploads).
 */

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
const fail = (status: number, error: string) => json({ error }, status);

/** Multipart overhead allowed on top of the file itself (boundaries, the other fields). */
const FORM_OVERHEAD = 64 * 1024;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return new Response(JSON.stringify({ error: "Method not allowed" }), {
    status: 405,
    headers: { Allow: "POST, DELETE", "Content-Type": "application/json" },
  });
}

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  if (request.method !== "POST" && request.method !== "DELETE") {
    return fail(405, "Method not allowed");
  }
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const multipart = type.startsWith("multipart/form-data");
  if (!multipart && !type.startsWith("application/x-www-form-urlencoded")) {
    return fail(415, "Please send the file as a form upload.");
  }

  // Never read more than the limit allows: a declared length over it is refused at once.
  const limit = MAX_UPLOAD_BYTES + FORM_OVERHEAD;
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return fail(413, uploadText.tooLarge);
  const body = await readAtMost(request, limit);
  if (body === "too-large") return fail(413, uploadText.tooLarge);
  let form: FormData;
  try {
    form = await new Request(request.url, {
      method: "POST",
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      body: new Blob([body as Uint8Array<ArrayBuffer>]),
    }).formData();
  } catch {
    return fail(400, "Please send the file as a form upload.");
  }

  const rt = await runtime();
  if (request.method === "DELETE" || form.get("intent") === "delete") {
    const paths = form.getAll("storagePath").filter((p): p is string => typeof p === "string");
    if (paths.length === 0 || paths.length > 50) return fail(400, uploadText.badPath);
    try {
      for (const storagePath of paths) await discardProductUpload(rt, storagePath);
    } catch (error) {
      if (error instanceof ProductInputError) return fail(error.status, error.message);
      log.error("upload discard failed", { error, userId: viewer.id });
      return fail(500, "Could not remove the file.");
    }
    return json({ ok: true, deleted: paths.length });
  }

  if (form.get("scope") !== "product") return fail(400, uploadText.badScope);
  const productId = form.get("productId");
  if (!isUuid(productId)) return fail(400, uploadText.badProduct);
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return fail(400, uploadText.noFile);
  if (file.size > MAX_UPLOAD_BYTES) return fail(413, uploadText.tooLarge);
  if (request.signal.aborted) return fail(400, uploadText.cancelledTitle);

  const bytes = Buffer.from(await file.arrayBuffer());
  let stored: { url: string; storagePath: string | null };
  try {
    stored = await storeProductUpload(rt.storage, productId, file.name, bytes);
  } catch (error) {
    if (error instanceof ImageRejectedError) {
      return error.reason === "not-an-image"
        ? fail(415, uploadText.notAnImage)
        : fail(422, uploadText.unreadable);
    }
    log.error("image upload failed", { error, userId: viewer.id, productId });
    return fail(500, uploadText.failedTitle);
  }
  // The browser gave up (the admin pressed 'Leave now') while the file was being processed: it
  // will never learn the path to delete it, so nothing may stay behind.
  if (request.signal.aborted && stored.storagePath) {
    await deleteImageVariants(rt.storage, stored.storagePath);
    return fail(400, uploadText.cancelledTitle);
  }
  log.info("product image uploaded", {
    userId: viewer.id,
    productId,
    storagePath: stored.storagePath,
    bytes: file.size,
  });
  return json({ url: stored.url, storagePath: stored.storagePath });
}

/** The request body, or "too-large" as soon as it passes `limit` bytes (the rest is not read). */
async function readAtMost(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return "too-large";
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
