import { data } from "react-router";
import { z } from "zod";
import { readForm, readJson } from "~/lib/forms.server.ts";
import {
  clearCart,
  getCart,
  InvalidQuantityError,
  removeCartItem,
  setAllCartItems,
  setCartItem,
  UnknownProductError,
  UnknownVariantError,
} from "~/modules/cart/cart.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { MAX_LINE_QUANTITY } from "~/rules/cart.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.cart";

const noStore = { "Cache-Control": "private, no-store" };

/** The signed-in user's stored cart (401 JSON when signed out). */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const { db } = await runtime();
  return data({ lines: await getCart(db, viewer.id) }, { headers: noStore });
}

const productId = z.uuid("Unknown product");
/** The product's variant; none: its default variant (decision 0015). */
const variantId = z.uuid("Unknown variant").nullish();
const quantity = z.coerce
  .number()
  .int("Quantity must be a whole number")
  .max(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`);

/** One action, switched on `intent` (Hydrogen's cart route). Only ids and quantities are read. */
const cartInput = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set-all"),
    lines: z
      .array(
        z.object({
          productId,
          variantId,
          quantity: quantity.min(1, "Quantity must be at least 1"),
        }),
      )
      .max(200),
  }),
  z.object({
    intent: z.literal("set"),
    productId,
    variantId,
    // 0 removes the line (SPEC.md §4: update clamps at 0 and removes at 0).
    quantity: quantity.min(0, "Quantity must not be negative"),
  }),
  z.object({ intent: z.literal("remove"), productId, variantId }),
  z.object({ intent: z.literal("clear") }),
]);
export type CartIntent = z.input<typeof cartInput>;

/** A JSON body, or a form whose `lines` field holds JSON; null for anything else (answered 400). */
async function readInput(request: Request): Promise<unknown> {
  if (request.headers.get("content-type")?.includes("application/json")) {
    return readJson(request);
  }
  const form = await readForm(request).catch((thrown: unknown) => {
    // Not a form at all: answered 400 like any other unreadable body.
    if ((thrown as { init?: { status?: number } }).init?.status === 415) return null;
    throw thrown;
  });
  if (!form) return null;
  const fields: Record<string, unknown> = formFields(form);
  if (typeof fields.lines === "string") {
    try {
      fields.lines = JSON.parse(fields.lines);
    } catch {
      // Left as text: the schema refuses it.
    }
  }
  return fields;
}

const badRequest = (error: string, errors: Record<string, string | undefined> = {}) =>
  data({ ok: false as const, error, fieldErrors: errors }, { status: 400, headers: noStore });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const { db } = await runtime();
  const parsed = cartInput.safeParse(await readInput(request));
  if (!parsed.success) return badRequest("Invalid cart change", fieldErrors(parsed.error));
  const input = parsed.data;
  // Lines of a whole-cart write left out (their product or variant is gone): said, not refused.
  let dropped: Array<{ productId: string; variantId: string | null }> | undefined;
  try {
    switch (input.intent) {
      case "set-all":
        dropped = (await setAllCartItems(db, viewer.id, input.lines)).dropped.map((l) => ({
          productId: l.productId,
          variantId: l.variantId ?? null,
        }));
        break;
      case "set":
        await setCartItem(db, viewer.id, input.productId, input.quantity, input.variantId ?? null);
        break;
      case "remove":
        await removeCartItem(db, viewer.id, input.productId, input.variantId ?? null);
        break;
      case "clear":
        await clearCart(db, viewer.id);
        break;
    }
  } catch (error) {
    if (error instanceof UnknownProductError) {
      return badRequest("Unknown product", { productId: "Unknown product" });
    }
    if (error instanceof UnknownVariantError) {
      return badRequest("Unknown variant", { variantId: "Unknown variant" });
    }
    if (error instanceof InvalidQuantityError) {
      return badRequest("Invalid quantity", { quantity: error.message });
    }
    throw error;
  }
  return data(
    { ok: true as const, lines: await getCart(db, viewer.id), ...(dropped ? { dropped } : {}) },
    { headers: noStore },
  );
}
