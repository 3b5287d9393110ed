import { data, redirect } from "react-router";
import { readForm } from "~/lib/forms.server.ts";
import { setAdminTimezone } from "~/modules/accounts/profile.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { formFields } from "~/rules/account-schemas.ts";
import { adminTimezoneForm } from "~/rules/admin-dates.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/preferences";

/** Saves the admin's time zone choice (remembered per admin). */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const parsed = adminTimezoneForm.safeParse(formFields(await readForm(request)));
  if (!parsed.success) return data({ error: "Unknown time zone" }, { status: 400 });
  const { db } = await runtime();
  await setAdminTimezone(db, viewer.id, parsed.data.timezone);
  return { ok: true };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin");
}
