import { ChevronLeft, ChevronRight, PackagePlus, Search } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { ProductForm } from "~/components/admin/product-form";
import { ProductImage } from "~/components/product/product-image";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { queryParam } from "~/lib/forms.server.ts";
import {
  type AdminProductCard,
  listAdminProducts,
  listCategoryNames,
} from "~/modules/catalog/admin-products.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { formatPaise } from "~/rules/money.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { LOW_STOCK_UNITS } from "~/rules/variant-schema.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/items";
import { productAction } from "./product-action.server.ts";

/*
 * /admin/items (SPEC.md §2 Admin screens): the add-item form and a grid of every product (active
 * or not), newest first, searchable by name and paged on the server (the catalogue may hold tens
 * of thousands). Each card opens /admin/items/{id}.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = (queryParam(url, "q") ?? "").slice(0, 100);
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  const lowStock = url.searchParams.get("stock") === "low";
  const { db } = await runtime();
  const [list, categories] = await Promise.all([
    listAdminProducts(db, { query, page: Number.isFinite(page) ? page : 1, lowStock }),
    listCategoryNames(db),
  ]);
  return { ...list, query, lowStock, categories };
}

export function action({ request }: Route.ActionArgs) {
  return productAction(request, { kind: "create" });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Items",
    description: "Add products and edit the LayerKart catalogue.",
    path: "/admin/items",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function AdminItems({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, query, lowStock, categories } = loaderData;
  // A fresh form (and a fresh product id) after each add or cancel.
  const [session, setSession] = useState(0);
  const reset = () => setSession((n) => n + 1);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8">
      <h1 className="font-bold text-3xl tracking-tight">Items</h1>
      <p className="mt-1 text-muted-foreground">Add products and edit the catalogue.</p>

      <section
        aria-labelledby="add-item-heading"
        className="mt-8 rounded-xl border bg-card p-4 shadow-xs sm:p-6"
      >
        <div className="mb-4 flex items-center gap-2">
          <PackagePlus aria-hidden="true" className="size-5 text-primary" />
          <h2 id="add-item-heading" className="font-semibold text-xl">
            Add item
          </h2>
        </div>
        <p className="mb-4 text-muted-foreground text-sm">Fields marked * are required.</p>
        <ProductForm
          key={session}
          mode="create"
          categories={categories}
          onDone={reset}
          onCancel={reset}
        />
      </section>

      <section aria-labelledby="all-products-heading" className="mt-10">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h2 id="all-products-heading" className="font-semibold text-xl">
              All products
            </h2>
            <p className="text-muted-foreground text-sm" aria-live="polite">
              {total === 1 ? "1 product" : `${total.toLocaleString("en-IN")} products`}
              {query ? ` matching “${query}”` : ""}
              {lowStock ? `, running low (${LOW_STOCK_UNITS} or fewer of a variant)` : ""}
            </p>
          </div>
          <SearchBox query={query} lowStock={lowStock} />
        </div>

        {items.length === 0 ? (
          <p className="rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
            {lowStock
              ? "No product is running low."
              : query
                ? "No products match this name."
                : "No products yet."}
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
            {items.map((p) => (
              <li key={p.id}>
                <AdminProductTile product={p} />
              </li>
            ))}
          </ul>
        )}

        {pages > 1 ? <Pager page={page} pages={pages} query={query} lowStock={lowStock} /> : null}
      </section>
    </div>
  );
}

function SearchBox({ query, lowStock }: { query: string; lowStock: boolean }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [value, setValue] = useState(query);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => setValue(query), [query]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const searching =
    navigation.state === "loading" && navigation.location?.pathname === "/admin/items";

  return (
    <Form
      method="get"
      role="search"
      className="flex w-full gap-2 sm:w-auto"
      onChange={(e) => {
        const form = e.currentTarget;
        clearTimeout(timer.current);
        timer.current = setTimeout(
          () => submit(form, { replace: true, preventScrollReset: true }),
          300,
        );
      }}
    >
      <Label htmlFor="admin-product-search" className="sr-only">
        Search products by name
      </Label>
      <Input
        id="admin-product-search"
        type="search"
        name="q"
        placeholder="Search by name"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="sm:w-64"
        aria-busy={searching}
      />
      <label className="flex shrink-0 items-center gap-2 text-sm">
        <input type="checkbox" name="stock" value="low" defaultChecked={lowStock} />
        Low stock
      </label>
      <Button type="submit" variant="outline">
        <Search aria-hidden="true" />
        Search
      </Button>
    </Form>
  );
}

function stockText(p: AdminProductCard) {
  if (!p.inStock) return "Out of stock";
  if (p.stockCount === null) return "In stock";
  return p.stockCount === 0 ? "0 left" : `${p.stockCount} in stock`;
}

function AdminProductTile({ product: p }: { product: AdminProductCard }) {
  return (
    <Link
      to={`/admin/items/${p.id}`}
      className="flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-xs transition-colors hover:border-primary/60 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ProductImage
        src={p.image}
        alt=""
        sizes="(min-width: 1280px) 300px, (min-width: 768px) 33vw, (min-width: 420px) 50vw, 100vw"
        className={`aspect-square w-full bg-muted object-cover ${p.isActive ? "" : "opacity-60"}`}
      />
      <div className="grid flex-1 gap-1 p-3">
        <h3 className="line-clamp-2 font-medium">{p.name}</h3>
        <p className="font-semibold">{formatPaise(p.pricePaise)}</p>
        <p className="text-muted-foreground text-sm">
          {p.category || "No category"}
          {p.subcategory ? ` · ${p.subcategory}` : ""}
        </p>
        <div className="mt-1 flex flex-wrap gap-1">
          <Badge variant={p.isActive ? "outline" : "secondary"}>
            {p.isActive ? "Active" : "Inactive"}
          </Badge>
          <Badge variant={p.inStock && p.stockCount !== 0 ? "outline" : "destructive"}>
            {stockText(p)}
          </Badge>
          {p.badge ? <Badge variant="secondary">{p.badge}</Badge> : null}
        </div>
      </div>
    </Link>
  );
}

function Pager({
  page,
  pages,
  query,
  lowStock,
}: {
  page: number;
  pages: number;
  query: string;
  lowStock: boolean;
}) {
  const href = (n: number) => {
    const params = new URLSearchParams();
    if (query) params.set("q", query);
    if (lowStock) params.set("stock", "low");
    if (n > 1) params.set("page", String(n));
    const s = params.toString();
    return s ? `/admin/items?${s}` : "/admin/items";
  };
  return (
    <nav aria-label="Product pages" className="mt-6 flex items-center justify-center gap-3">
      {page > 1 ? (
        <Link
          to={href(page - 1)}
          preventScrollReset
          className={buttonVariants({ variant: "outline" })}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Link>
      ) : null}
      <span className="text-sm">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link
          to={href(page + 1)}
          preventScrollReset
          className={buttonVariants({ variant: "outline" })}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Link>
      ) : null}
    </nav>
  );
}
