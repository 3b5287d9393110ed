import { data } from "react-router";
import { z } from "zod";
import { listProductsByIds } from "~/modules/catalog/products.server.ts";
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
  const { db } = await runtime();
  return data(
    { products: await listProductsByIds(db, ids) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
