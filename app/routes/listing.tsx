import { data, Link } from "react-router";
import { z } from "zod";
import { BackHomeButtons } from "~/components/layout/back-home-buttons";
import { ProductGrid } from "~/components/product/product-card";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { personalPageHandle } from "~/lib/public-page.ts";
import {
  LISTING_PAGE_SIZE,
  listProducts,
  listSubcategories,
} from "~/modules/catalog/products.server.ts";
import { listingDescription, subcategorySlug } from "~/rules/catalog-paths.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/listing";

export const handle = personalPageHandle;

/** The three listings: /products (every active product) and the two category listings. */
const listings = {
  products: { title: "Our Products", categoryText: undefined, path: "/products" },
  "3d-prints": { title: "3D Prints", categoryText: "3D Prints", path: "/3d-prints" },
  "3d-characters": {
    title: "3D Characters",
    categoryText: "3D Characters",
    path: "/3d-characters",
  },
} as const;

const pageParam = z.coerce.number().int().min(1).max(10_000).catch(1);

export async function loader({ request, params }: Route.LoaderArgs) {
  const listing = Object.hasOwn(listings, params.listing)
    ? listings[params.listing as keyof typeof listings]
    : undefined;
  // /products has no subcategories.
  if (!listing || (params.sub && !listing.categoryText)) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const page = pageParam.parse(url.searchParams.get("page") ?? 1);
  const sub = params.sub?.toLowerCase();
  const { db, pageCache } = await runtime();
  const { categoryText } = listing;
  // Read once per catalogue change, whoever asks (the page cache hears of every change).
  const [{ items, total }, subcategories] = await Promise.all([
    pageCache.remember(`listing ${categoryText ?? ""} ${sub ?? ""} ${page}`, () =>
      listProducts(db, { categoryText, subcategorySlug: sub }, page),
    ),
    categoryText
      ? pageCache.remember(`subcategories ${categoryText}`, () =>
          listSubcategories(db, categoryText),
        )
      : Promise.resolve([]),
  ]);
  const subcategory = sub ? subcategories.find((s) => subcategorySlug(s) === sub) : undefined;
  if (sub && !subcategory) throw data(null, { status: 404 });
  const pages = Math.max(1, Math.ceil(total / LISTING_PAGE_SIZE));
  if (page > pages) throw data(null, { status: 404 });
  return {
    title: subcategory ? `${subcategory} · ${listing.title}` : listing.title,
    heading: subcategory ?? listing.title,
    basePath: listing.path,
    path: sub ? `${listing.path}/${sub}` : listing.path,
    subcategories,
    activeSub: sub ?? null,
    items,
    total,
    page,
    pages,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: "Page not found — LayerKart" }];
  const pageSuffix = loaderData.page > 1 ? `?page=${loaderData.page}` : "";
  return pageMeta({
    title: loaderData.page > 1 ? `${loaderData.title} (page ${loaderData.page})` : loaderData.title,
    description: listingDescription(
      loaderData.total,
      loaderData.basePath === "/products" ? null : loaderData.title,
    ),
    path: loaderData.path + pageSuffix,
    origin: originFrom(matches),
  });
};

export default function Listing({ loaderData }: Route.ComponentProps) {
  const { heading, items, total, page, pages, path, basePath, subcategories, activeSub } =
    loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-bold text-3xl">{heading}</h1>
          <p className="mt-1 text-muted-foreground">
            {total} {total === 1 ? "product" : "products"}
          </p>
        </div>
        <BackHomeButtons />
      </div>
      {subcategories.length > 0 ? (
        <nav aria-label="Subcategories" className="mb-6">
          <ul className="flex flex-wrap gap-2">
            <li>
              <Link
                to={basePath}
                aria-current={activeSub === null ? "page" : undefined}
                className={cn(
                  buttonVariants({
                    variant: activeSub === null ? "default" : "outline",
                    size: "sm",
                  }),
                )}
              >
                All
              </Link>
            </li>
            {subcategories.map((s) => (
              <li key={s}>
                <Link
                  to={`${basePath}/${subcategorySlug(s)}`}
                  aria-current={activeSub === subcategorySlug(s) ? "page" : undefined}
                  className={cn(
                    buttonVariants({
                      variant: activeSub === subcategorySlug(s) ? "default" : "outline",
                      size: "sm",
                    }),
                  )}
                >
                  {s}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {items.length === 0 ? (
        <p className="rounded-lg border bg-card p-8 text-center text-muted-foreground">
          No products here yet.
        </p>
      ) : (
        <ProductGrid products={items} priorityCount={2} headingLevel={2} label={heading} />
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3">
          {page > 1 ? (
            <Link
              to={page === 2 ? path : `${path}?page=${page - 1}`}
              className={buttonVariants({ variant: "outline" })}
              rel="prev"
            >
              Previous
            </Link>
          ) : null}
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link
              to={`${path}?page=${page + 1}`}
              className={buttonVariants({ variant: "outline" })}
              rel="next"
            >
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
