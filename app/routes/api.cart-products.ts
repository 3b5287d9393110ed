import { data } from "react-router";
import { z } from "zod";
import { listProductsByIds } from "~/modules/catalog/products.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.cart-products";

const ids = z.array(z.uuid()).max(100);

/** The current price and availability of the products in a cart: /api/cart-products?id=…&id=… */
export async function loader({ request }: Route.LoaderArgs) {
  const parsed = ids.safeParse(new URL(request.url).searchParams.getAll("id"));
  if (!parsed.success) return data({ products: [] }, { status: 400 });
  const { db } = await runtime();
  return data(
    { products: await listProductsByIds(db, [...new Set(parsed.data)]) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
