import { Form, Link } from "react-router";
import { z } from "zod";
import { ProductGrid } from "~/components/product/product-card";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { queryParam } from "~/lib/forms.server.ts";
import { searchProducts } from "~/modules/catalog/products.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/search";

/** SPEC.md §9: at most 10 results a page. */
export const SEARCH_PAGE_SIZE = 10;

const searchParams = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(100).catch(1),
});

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { q, page } = searchParams.parse({
    q: queryParam(url, "q") ?? "",
    page: url.searchParams.get("page") ?? 1,
  });
  if (!q) return { q, page, items: [], hasNext: false };
  const { db, pageCache } = await runtime();
  // Shared by every visitor until the catalogue changes (decision 0021).
  const key = q.toLowerCase();
  const { items, hasNext } = await pageCache.remember(`search ${page} ${key}`, () =>
    searchProducts(db, key, page, SEARCH_PAGE_SIZE),
  );
  return { q, page, items, hasNext };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta({
    title: loaderData?.q ? `Search: ${loaderData.q}` : "Search",
    description: "Search LayerKart's 3D printed décor, gadgets and character miniatures.",
    path: "/search",
    origin: originFrom(matches),
    noindex: true,
  });

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, page, items, hasNext } = loaderData;
  const pageLink = (p: number) => `/search?q=${encodeURIComponent(q)}${p > 1 ? `&page=${p}` : ""}`;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="font-bold text-3xl">{q ? `Results for “${q}”` : "Search"}</h1>
      <Form
        method="get"
        action="/search"
        role="search"
        aria-label="Search again"
        className="mt-4 flex max-w-xl gap-2"
      >
        <label htmlFor="search-page-q" className="sr-only">
          Search products
        </label>
        <Input
          id="search-page-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="Try “dragon” or “planter”"
        />
        <Button type="submit">Search</Button>
      </Form>
      <div className="mt-8">
        {q && items.length === 0 ? (
          <p className="text-muted-foreground">
            No products match “{q}”. Check the spelling or try a broader word.
          </p>
        ) : null}
        {items.length > 0 ? (
          <ProductGrid products={items} priorityCount={2} headingLevel={2} label="Search results" />
        ) : null}
      </div>
      {page > 1 || hasNext ? (
        <nav aria-label="Result pages" className="mt-8 flex items-center justify-center gap-3">
          {page > 1 ? (
            <Link to={pageLink(page - 1)} className={buttonVariants({ variant: "outline" })}>
              Previous
            </Link>
          ) : null}
          <span className="text-sm">Page {page}</span>
          {hasNext ? (
            <Link to={pageLink(page + 1)} className={buttonVariants({ variant: "outline" })}>
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
