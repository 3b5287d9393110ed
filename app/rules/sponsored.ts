import { z } from "zod";

/** The home carousel shows at most this many sponsored products. */
export const MAX_SPONSORED = 12;

/** What the admin's Save sends: product ids in carousel order, each once. */
export const sponsoredIdsSchema = z
  .array(z.uuid("Unknown product."))
  .max(MAX_SPONSORED, `The carousel shows at most ${MAX_SPONSORED} products.`)
  .refine((ids) => new Set(ids).size === ids.length, "A product is listed twice.");

export type SponsoredSlide = {
  productId: string;
  name: string;
  description: string;
  image: string | null;
  pricePaise: number;
  category: string;
};
