import { data } from "react-router";
import { z } from "zod";
import { readForm } from "~/lib/forms.server.ts";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import { addFavourite, removeFavourite } from "~/modules/favourites/favourites.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.favourites";

const favouriteInput = z.object({
  intent: z.enum(["add", "remove"]),
  productId: z.uuid(),
});

/** Adds or removes a favourite of the signed-in user (SPEC.md §7 addFavourite / removeFavourite). */
export async function action({ request }: Route.ActionArgs) {
  const rt = await runtime();
  const viewer = await getViewer(rt, request);
  if (!viewer) {
    return data(
      { ok: false, error: "Sign in required", message: "Please sign in to save favourites." },
      { status: 401 },
    );
  }
  const parsed = favouriteInput.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return data({ ok: false, error: "Failed to update favourite" }, { status: 400 });
  }
  const { intent, productId } = parsed.data;
  if (intent === "add") {
    const added = await addFavourite(rt.db, viewer.id, productId);
    if (!added) return data({ ok: false, error: "Product not found" }, { status: 404 });
    return data({ ok: true, favourite: true });
  }
  await removeFavourite(rt.db, viewer.id, productId);
  return data({ ok: true, favourite: false });
}
