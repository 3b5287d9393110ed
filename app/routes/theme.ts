import { data, redirect } from "react-router";
import { z } from "zod";
import { readForm } from "~/lib/forms.server.ts";
import { safeRedirect } from "~/rules/account-schemas.ts";
import { THEMES, themeCookie } from "~/rules/theme.ts";
import type { Route } from "./+types/theme";

const themeForm = z.object({
  theme: z.enum(THEMES),
  redirectTo: z.string().optional(),
});

/** Stores the visitor's theme choice in a cookie; works without JavaScript too. */
export async function action({ request }: Route.ActionArgs) {
  const parsed = themeForm.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ ok: false }, { status: 400 });
  const secure = new URL(request.url).protocol === "https:";
  const headers = { "Set-Cookie": themeCookie(parsed.data.theme, secure) };
  if (parsed.data.redirectTo) return redirect(safeRedirect(parsed.data.redirectTo), { headers });
  return data({ ok: true }, { headers });
}
