import { ArrowLeft, ExternalLink } from "lucide-react";
import { data, Link, useNavigate } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { type EditableProduct, ProductForm } from "~/components/admin/product-form";
import { VariantEditor } from "~/components/admin/variant-editor";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { getAdminProduct, listCategoryNames } from "~/modules/catalog/admin-products.server.ts";
import { adminVariantTable } from "~/modules/catalog/variant-admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { isUuid } from "~/rules/ids.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { fromPrice } from "~/rules/variants.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/item";
import { productAction } from "./product-action.server.ts";

/*
 * /admin/items/:id (SPEC.md §2, §5): the edit screen. No field is required; a field left blank
 * keeps its value. Existing images can be marked 'Will delete' (and back), new ones uploaded, and
 * the product's static reviews edited. Save applies everything in one transaction.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!isUuid(params.id)) throw data(null, { status: 404, statusText: "Not Found" });
  const { db } = await runtime();
  const [product, categories, variants] = await Promise.all([
    getAdminProduct(db, params.id),
    listCategoryNames(db),
    adminVariantTable(db, params.id),
  ]);
  if (!product) throw data(null, { status: 404, statusText: "Not Found" });
  const editable: EditableProduct = {
    id: product.id,
    name: product.name,
    pricePaise: product.pricePaise,
    originalPricePaise: product.originalPricePaise,
    category: product.category,
    subcategory: product.subcategory,
    description: product.description,
    discount: product.discount,
    rating: product.rating,
    reviewsCount: product.reviewsCount,
    features: product.features,
    featuresKv: product.featuresKv,
    badge: product.badge,
    stockCount: product.stockCount,
    weightGrams: product.weightGrams,
    boxLengthCm: product.boxLengthCm,
    boxWidthCm: product.boxWidthCm,
    boxHeightCm: product.boxHeightCm,
    isActive: product.isActive,
    inStock: product.inStock,
    images: product.images,
    reviewsList: product.reviewsList,
    hasOptions: variants.options.length > 0,
    priceVaries: fromPrice(variants.variants).varies,
  };
  return {
    product: editable,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
    categories,
    variants,
  };
}

export function action({ request, params }: Route.ActionArgs) {
  return productAction(request, { kind: "update", productId: params.id });
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  return pageMeta({
    title: loaderData ? `Edit ${loaderData.product.name}` : "Edit item",
    description: "Edit a product in the LayerKart catalogue.",
    path: `/admin/items/${params.id}`,
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function AdminItem({ loaderData }: Route.ComponentProps) {
  const { product, categories, createdAt, updatedAt, variants } = loaderData;
  const navigate = useNavigate();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8">
      <Link
        to="/admin/items"
        className="mb-4 inline-flex items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All items
      </Link>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="break-words font-bold text-3xl tracking-tight">Edit item</h1>
          <p className="mt-1 break-words text-lg">{product.name}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-muted-foreground text-sm">
            <Badge variant={product.isActive ? "outline" : "secondary"}>
              {product.isActive ? "Active" : "Inactive"}
            </Badge>
            <span>
              Added <AdminDate value={createdAt} />
            </span>
            <span>
              · Updated <AdminDate value={updatedAt} />
            </span>
          </div>
        </div>
        <Link
          to={`/product/${product.id}`}
          className={buttonVariants({ variant: "outline", className: "max-sm:w-full" })}
        >
          <ExternalLink aria-hidden="true" />
          View in shop
        </Link>
      </div>
      <div className="rounded-xl border bg-card p-4 shadow-xs sm:p-6">
        <p className="mb-4 text-muted-foreground text-sm">
          Nothing is required here: a field left blank keeps its current value (a blank original
          price, subcategory, badge or stock count is cleared).
        </p>
        <ProductForm
          // A save reloads the product: the form starts again from what was stored.
          key={updatedAt}
          mode="edit"
          product={product}
          categories={categories}
          onCancel={() => navigate("/admin/items")}
        />
      </div>
      <VariantEditor
        // Every save of the options or the table reloads them: the editor starts again from it.
        key={`variants-${updatedAt}`}
        options={variants.options}
        variants={variants.variants}
        images={product.images}
      />
    </div>
  );
}
