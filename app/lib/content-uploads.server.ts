import { data } from "react-router";
import { FORM_OVERHEAD_BYTES } from "~/lib/body-limits.server.ts";
import { readForm } from "~/lib/forms.server.ts";

/*
 * Form bodies carrying a file (promotion images, product imports): the body is refused with 413
 * as soon as it passes the limit, declared (Content-Length) or not (a chunked body is counted
 * as it arrives), so an oversized upload is never held in memory whole.
 */

export type TooLargeBody = { ok: false; title: string; description: string };

export async function readLimitedForm(
  request: Request,
  maxFileBytes: number,
  tooLarge: { title: string; description: string },
): Promise<FormData> {
  const limit = maxFileBytes + FORM_OVERHEAD_BYTES;
  const refuse = () => data<TooLargeBody>({ ok: false, ...tooLarge }, { status: 413 });
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) throw refuse();
  if (!request.body) return readForm(request, limit);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw refuse();
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks);
  return readForm(
    new Request(request.url, { method: request.method, headers: request.headers, body }),
    limit,
  );
}

/** The uploaded file of a form field, or null when none was chosen. */
export function formFile(form: FormData, name: string): File | null {
  const value = form.get(name);
  if (!value || typeof value === "string" || value.size === 0) return null;
  return value;
}
