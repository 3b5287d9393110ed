import { Link } from "react-router";
import { PromotionsSection } from "~/components/home/promotions-section";
import { SponsoredCarousel } from "~/components/home/sponsored-carousel";
import { WhyUs } from "~/components/home/why-us";
import { ProductGrid } from "~/components/product/product-card";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { skipPageCache } from "~/lib/request-context.server.ts";
import { listLatestProducts } from "~/modules/catalog/products.server.ts";
import { listLivePromotions } from "~/modules/promotions/promotions.server.ts";
import { listSponsoredSlides } from "~/modules/sponsored/sponsored.server.ts";
import { jsonLd, originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/home";

export const handle = personalPageHandle;

/** A part that failed to load is left out of this page, and the page isn't cached without it. */
function partial<T>(fallback: T): T {
  skipPageCache();
  return fallback;
}

export async function loader() {
  const { db, pageCache } = await runtime();
  // Sponsored slides and promotions are extras: if they fail to load, the page still renders.
  const [latest, slides, promotions] = await Promise.all([
    // Read once per catalogue change, whoever asks (the page cache hears of every change).
    pageCache.remember("latest products", () => listLatestProducts(db)),
    listSponsoredSlides(db).catch(() => partial([])),
    listLivePromotions(db).catch(() => partial([])),
  ]);
  return { latest, slides, promotions };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const origin = originFrom(matches);
  return [
    ...pageMeta({
      title: "LayerKart — 3D printed décor, gadgets and miniatures",
      description:
        "Shop 3D printed home décor, gadgets, planters and character miniatures, printed in India since 2020. Prices in rupees, custom prints welcome.",
      path: "/",
      origin,
    }),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: "LayerKart",
      url: origin || undefined,
      logo: `${origin}/favicon.svg`,
      foundingDate: "2020",
      address: { "@type": "PostalAddress", addressLocality: "Bengaluru", addressCountry: "IN" },
    }),
  ];
};

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <h1 className="sr-only">LayerKart: 3D printed décor, gadgets and character miniatures</h1>
      <SponsoredCarousel slides={loaderData.slides} />
      <WhyUs />
      <section aria-labelledby="latest-heading" className="mt-12">
        <div className="mb-4 flex items-end justify-between gap-4">
          <h2 id="latest-heading" className="font-bold text-2xl">
            Latest Products
          </h2>
          <Link to="/products" className={buttonVariants({ variant: "outline" })}>
            View All Products
          </Link>
        </div>
        <ProductGrid products={loaderData.latest} label="Latest Products" />
      </section>
      <PromotionsSection promotions={loaderData.promotions} />
    </div>
  );
}
