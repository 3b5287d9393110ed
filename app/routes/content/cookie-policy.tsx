import { ContentPage } from "~/components/content/content-page";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/cookie-policy";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Cookie Policy",
    description:
      "LayerKart uses only essential cookies: to keep you signed in, remember your theme and count your cart items. No advertising or tracking cookies.",
    path: "/cookie-policy",
    origin: originFrom(matches),
  });

export default function CookiePolicy() {
  return (
    <ContentPage
      eyebrow="Legal"
      title="Cookie Policy"
      lead="We use only essential cookies, to keep you signed in, remember your light or dark theme and show your cart's item count, and never for advertising or tracking."
    />
  );
}
