import { data, redirect } from "react-router";
import { z } from "zod";
import { THEMES, themeCookie } from "~/rules/theme.ts";
import type { Route } from "./+types/theme";

const themeForm = z.object({
  theme: z.enum(THEMES),
  redirectTo: z
    .string()
    .regex(/^\/(?!\/)/)
    .optional(),
});

/** Stores the visitor's theme choice in a cookie; works without JavaScript too. */
export async function action({ request }: Route.ActionArgs) {
  const parsed = themeForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false }, { status: 400 });
  const secure = new URL(request.url).protocol === "https:";
  const headers = { "Set-Cookie": themeCookie(parsed.data.theme, secure) };
  if (parsed.data.redirectTo) return redirect(parsed.data.redirectTo, { headers });
  return data({ ok: true }, { headers });
}
