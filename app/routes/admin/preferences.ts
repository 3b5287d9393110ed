import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { userProfiles } from "~/db/schema.ts";
import { readForm } from "~/lib/forms.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { isAdminTimezone } from "~/rules/admin-dates.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/preferences";

/** Saves the admin's time zone choice (remembered per admin). */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const timezone = (await readForm(request)).get("timezone");
  if (!isAdminTimezone(timezone)) return data({ error: "Unknown time zone" }, { status: 400 });
  const { db } = await runtime();
  await db
    .update(userProfiles)
    .set({ adminTimezone: timezone, updatedAt: new Date() })
    .where(eq(userProfiles.userId, viewer.id));
  return { ok: true };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin");
}
