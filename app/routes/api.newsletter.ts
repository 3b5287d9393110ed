import { data } from "react-router";
import { readForm } from "~/lib/forms.server.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { subscribe } from "~/modules/subscribers/subscribers.server.ts";
import { newsletterSchema } from "~/rules/storefront-schemas.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.newsletter";

export async function action({ request }: Route.ActionArgs) {
  const parsed = newsletterSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return data({ ok: false as const, error: parsed.error.issues[0].message }, { status: 400 });
  }
  const wait = await rateLimited((await runtime()).db, request, "newsletter");
  if (wait !== null) {
    return data(
      { ok: false as const, error: RATE_LIMITED_MESSAGE },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  const { db } = await runtime();
  // The same answer whether or not the address was already on the list: the form must not tell
  // anyone who subscribes (issue 20).
  await subscribe(db, parsed.data.email);
  return data({ ok: true as const, message: "Thanks for subscribing!" });
}
