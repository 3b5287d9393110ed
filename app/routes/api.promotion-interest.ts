import { data } from "react-router";
import { readForm } from "~/lib/forms.server.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { recordPromotionInterest } from "~/modules/promotions/promotions.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { fieldErrors } from "~/rules/account-schemas.ts";
import { promotionInterestSchema } from "~/rules/storefront-schemas.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.promotion-interest";

export async function action({ request }: Route.ActionArgs) {
  const parsed = promotionInterestSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return data({ ok: false as const, errors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const wait = await rateLimited((await runtime()).db, request, "promotion-interest");
  if (wait !== null) {
    return data(
      { ok: false as const, errors: { form: RATE_LIMITED_MESSAGE } },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  const rt = await runtime();
  const settings = await getShopSettings(rt.db);
  const shopEmail = settings.shopEmail || rt.env.mailFrom;
  if (!(await recordPromotionInterest({ db: rt.db, jobs: rt.jobRunner, shopEmail }, parsed.data))) {
    return data(
      { ok: false as const, errors: { form: "This offer is no longer available." } },
      { status: 404 },
    );
  }
  return data({ ok: true as const });
}
