import { data } from "react-router";
import { z } from "zod";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import { listAddresses } from "~/modules/addresses/addresses.server.ts";
import { listProductsByIds } from "~/modules/catalog/products.server.ts";
import { variantOffers } from "~/modules/catalog/variants.server.ts";
import { priceLines } from "~/modules/discounts/discounts.server.ts";
import { ownCustomParts } from "~/modules/quotes/quotes.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { type ShippingQuote, shippingFor } from "~/modules/shipping/rates.server.ts";
import { MAX_LINE_QUANTITY } from "~/rules/cart.ts";
import { codFor } from "~/rules/cash-on-delivery.ts";
import type { DiscountLine } from "~/rules/discounts.ts";
import { isPinCode } from "~/rules/pin-directory.ts";
import type { CartPartDetails } from "~/rules/print-dates.ts";
import { isPurchasable, quantityLimit } from "~/rules/product-display.ts";
import { CUSTOM_PART_CATEGORY } from "~/rules/quote-pricing.ts";
import type { CartShipping } from "~/rules/shipping-display.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.cart-products";

const isId = (s: string) => z.uuid().safeParse(s).success;

/**
 * "<product id>:<quantity>" or "<product id>:<quantity>:<variant id>", as the cart page sends each
 * line to be priced (no variant: the product's default, priced as the product).
 */
function parseLine(
  text: string,
): { productId: string; quantity: number; variantId: string | null } | null {
  const [id, qty, variant] = text.split(":");
  const quantity = Number(qty);
  if (!id || !isId(id) || !Number.isInteger(quantity) || quantity < 1) return null;
  if (variant !== undefined && !isId(variant)) return null;
  return {
    productId: id,
    quantity: Math.min(quantity, MAX_LINE_QUANTITY),
    variantId: variant ?? null,
  };
}

function shippingNote(rated: ShippingQuote | null): CartShipping | null {
  if (!rated || rated.kind === "flat") return null;
  if (rated.kind === "unknown-pin") return { kind: "unknown-pin", pin: rated.pin };
  return { kind: "rated", pin: rated.place.pin, grams: rated.grams };
}

/** Cash on delivery's fee for this total to a rated PIN, or null when it isn't offered there. */
function codFeeFor(
  s: Awaited<ReturnType<typeof getShopSettings>>,
  rated: ShippingQuote | null,
  totalPaise: number,
): number | null {
  if (rated?.kind !== "rated") return null;
  const cod = codFor(
    { enabled: s.codEnabled, maxOrderPaise: s.codMaxOrderPaise },
    s.shippingRates,
    rated.zone,
    totalPaise,
  );
  return cod.kind === "available" ? cod.feePaise : null;
}

/**
 * The current price and availability of the products in a cart: /api/cart-products?id=…&id=…
 * Ids that can't be products are dropped (their lines then show as unavailable), not the request.
 * With `line=<id>:<quantity>[:<variant id>]` (and `code=`), also the cart's figures as the server prices them:
 * shipping, tax, the best automatic offer and the code's discount or the reason it doesn't apply.
 * With `pin=`, the shipping is the rate to that PIN code (what checkout charges for an address
 * there); without, the shop's flat fee as an estimate.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const lines = params
    .getAll("line")
    .map(parseLine)
    .filter((l) => l !== null)
    .slice(0, 100);
  const ids = [
    ...new Set([...params.getAll("id").filter(isId), ...lines.map((l) => l.productId)]),
  ].slice(0, 100);
  const rt = await runtime();
  const found = await listProductsByIds(rt.db, ids);
  // A signed-in customer's own custom parts (never catalogue products): available while their
  // quote holds its price.
  const missing = ids.filter((id) => !found.some((p) => p.id === id));
  const viewer = missing.length > 0 || lines.length > 0 ? await getViewer(rt, request) : null;
  const parts = viewer && missing.length > 0 ? await ownCustomParts(rt.db, viewer.id, missing) : [];
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
  const all = [...found, ...custom];
  // The lines' variants (a variant of another product is left out: its line shows unavailable).
  const variants = await variantOffers(
    rt.db,
    lines.flatMap((l) => (l.variantId ? [{ productId: l.productId, variantId: l.variantId }] : [])),
  );
  // A custom part's speed, ready-by date and staff's note on a new price, under its cart line.
  const partDetails: Record<string, CartPartDetails> = Object.fromEntries(
    parts.map((p) => [
      p.id,
      {
        speed: p.speed,
        readyBy: p.readyBy,
        priceNote: p.priceNote,
        // Said only beside a note (the slicer's or staff's).
        priceNoteBy: p.priceNote ? p.priceNoteBy : undefined,
      },
    ]),
  );
  let pricing = null;
  if (lines.length > 0) {
    const byId = new Map(all.map((p) => [p.id, p]));
    const variantById = new Map(variants.map((v) => [v.id, v]));
    const customIds = new Set(custom.map((p) => p.id));
    // What checkout would charge: lines that can be bought, at their quantities and their
    // variants' prices.
    const priced: DiscountLine[] = lines.flatMap((l) => {
      const product = byId.get(l.productId);
      const variant = l.variantId ? variantById.get(l.variantId) : undefined;
      if (l.variantId && !variant) return [];
      const p =
        product && variant
          ? {
              ...product,
              pricePaise: variant.pricePaise,
              inStock: variant.inStock,
              stockCount: variant.stockCount,
              isActive: product.isActive && variant.isActive,
            }
          : product;
      if (!p || !isPurchasable(p) || p.pricePaise <= 0) return [];
      const custom = customIds.has(p.id);
      if (!custom && l.quantity > quantityLimit(p)) return [];
      return [
        {
          productId: p.id,
          category: p.category,
          subcategory: p.subcategory,
          custom,
          unitPricePaise: p.pricePaise,
          quantity: l.quantity,
        },
      ];
    });
    const code = params.get("code")?.trim().slice(0, 40) ?? "";
    // Each code priced counts against the visitor's address, so codes can't be guessed by the
    // thousand; past the limit the cart is still priced, without the code, and says why.
    const busy = code ? (await rateLimited(rt.db, request, "discount-code")) !== null : false;
    const settings = await getShopSettings(rt.db);
    // With the visitor's PIN code (or a signed-in customer's default address), the rate checkout
    // will charge to it; without, the flat fee as an estimate.
    let pin = params.get("pin")?.trim() ?? "";
    if (!isPinCode(pin) && viewer) {
      const saved = await listAddresses(rt.db, viewer.id);
      pin = (saved.find((a) => a.isDefault) ?? saved[0])?.postalCode ?? "";
    }
    const rated = isPinCode(pin)
      ? await shippingFor(rt.db, settings, pin, priced, { rates: rt.courierRates, cod: false })
      : null;
    const result = await priceLines(rt.db, {
      lines: priced,
      settings: {
        ...settings,
        shippingFeePaise:
          rated && rated.kind !== "unknown-pin" ? rated.paise : settings.shippingFeePaise,
      },
      code: code && !busy ? code : null,
      userId: viewer?.id ?? null,
    });
    pricing = {
      ...result,
      codeRefusal: busy
        ? { code: "busy" as const, message: RATE_LIMITED_MESSAGE }
        : result.codeRefusal,
      /** The code these figures were priced with. */
      code: code ? code.toUpperCase() : null,
      taxRateBasisPoints: settings.taxRateBasisPoints,
      freeShippingThresholdPaise: settings.freeShippingThresholdPaise,
      /** What the shipping is for: a PIN's rate, a PIN not served, or the flat estimate (null). */
      shipping: shippingNote(rated),
      /** The fee for paying on delivery to that PIN (null: not offered there, or no PIN yet). */
      codFeePaise: codFeeFor(settings, rated, result.totalPaise),
    };
  }
  return data(
    { products: all, variants, pricing, parts: partDetails },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
