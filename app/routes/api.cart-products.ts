import { data } from "react-router";
import { z } from "zod";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import { listProductsByIds } from "~/modules/catalog/products.server.ts";
import { ownCustomParts } from "~/modules/quotes/quotes.server.ts";
import { CUSTOM_PART_CATEGORY } from "~/rules/quote-pricing.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.cart-products";

const isId = (s: string) => z.uuid().safeParse(s).success;

/**
 * The current price and availability of the products in a cart: /api/cart-products?id=…&id=…
 * Ids that can't be products are dropped (their lines then show as unavailable), not the request.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const ids = [...new Set(new URL(request.url).searchParams.getAll("id").filter(isId))].slice(
    0,
    100,
  );
  const rt = await runtime();
  const found = await listProductsByIds(rt.db, ids);
  // A signed-in customer's own custom parts (never catalogue products): available while their
  // quote holds its price.
  const missing = ids.filter((id) => !found.some((p) => p.id === id));
  const viewer = missing.length > 0 ? await getViewer(rt, request) : null;
  const parts = viewer ? await ownCustomParts(rt.db, viewer.id, missing) : [];
  const custom = parts.map((p) => ({
    id: p.id,
    name: p.name,
    category: CUSTOM_PART_CATEGORY,
    subcategory: null,
    image: null,
    pricePaise: p.pricePaise,
    originalPricePaise: null,
    discount: 0,
    rating: 0,
    reviewsCount: 0,
    badge: null,
    inStock: true,
    isActive: p.available,
    stockCount: null,
  }));
  return data(
    { products: [...found, ...custom] },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
