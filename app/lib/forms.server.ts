import { data } from "react-router";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * An action's form body. Anything that isn't a form (JSON, text, a broken body) is answered with
 * a 4xx, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!FORM_TYPES.some((t) => type.startsWith(t))) {
    throw data({ ok: false, error: "Please submit the form again." }, { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data({ ok: false, error: "Please submit the form again." }, { status: 400 });
  }
}
