import { data } from "react-router";
import { z } from "zod";
import { queryParam } from "~/lib/forms.server.ts";
import { suggestProducts } from "~/modules/catalog/products.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.search";

const query = z.string().trim().min(1).max(100);

/** Suggestions for the header search box. */
export async function loader({ request }: Route.LoaderArgs) {
  const parsed = query.safeParse(queryParam(request.url, "q") ?? "");
  if (!parsed.success) return data({ suggestions: [] });
  const { db, pageCache } = await runtime();
  // Shared by every visitor until the catalogue changes (decision 0021; the ranking itself is
  // kept longer, through sales, by the catalog module).
  const key = parsed.data.toLowerCase();
  const suggestions = await pageCache.remember(`suggestions ${key}`, () =>
    suggestProducts(db, key),
  );
  return data({ suggestions }, { headers: { "Cache-Control": "public, max-age=60" } });
}
