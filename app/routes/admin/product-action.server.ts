import { data } from "react-router";
import type { ProductActionResult } from "~/components/admin/product-form";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  addCategory,
  createProduct,
  ProductInputError,
  updateProduct,
} from "~/modules/catalog/admin-products.server.ts";
import { setProductOptions, updateVariants } from "~/modules/catalog/variant-admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { fieldErrors } from "~/rules/account-schemas.ts";
import {
  categoryNameSchema,
  createProductSchema,
  productFormInput,
  updateProductSchema,
} from "~/rules/admin-product-schema.ts";
import { isUuid } from "~/rules/ids.ts";
import {
  jsonField,
  pathErrors,
  productOptionsSchema,
  variantRowsSchema,
  variantText,
} from "~/rules/variant-schema.ts";
import { runtime } from "~/runtime.server.ts";

/*
 * The product form's action, shared by /admin/items (add an item) and /admin/items/:id (edit
 * one): either screen can also add a category from the form.
 */

type Target = { kind: "create" } | { kind: "update"; productId: string };

const answer = (result: ProductActionResult, status?: number) =>
  data(result, status ? { status } : undefined);
const invalid = (fieldErrors: Record<string, string | undefined>, status = 400) =>
  answer({ kind: "invalid", fieldErrors }, status);
const notFound = () => answer({ kind: "not-found" }, 404);

export async function productAction(request: Request, target: Target) {
  const viewer = await requireAdmin(request);
  if (target.kind === "update" && !isUuid(target.productId)) return notFound();
  const form = await readForm(request);
  const rt = await runtime();
  const intent = form.get("intent");
  try {
    if (intent === "add-category") {
      const name = categoryNameSchema.safeParse(form.get("name") ?? "");
      if (!name.success) return invalid({ name: name.error.issues[0]?.message });
      const added = await addCategory(rt.db, viewer, name.data);
      return answer({ kind: "category", ...added });
    }
    if (target.kind === "create" && intent === "create") {
      const parsed = createProductSchema.safeParse(productFormInput(form));
      if (!parsed.success) return invalid(fieldErrors(parsed.error));
      const { id } = await createProduct(rt, viewer, parsed.data);
      return answer({ kind: "created", id, name: parsed.data.name });
    }
    if (target.kind === "update" && intent === "update") {
      const parsed = updateProductSchema.safeParse(productFormInput(form));
      if (!parsed.success) return invalid(fieldErrors(parsed.error));
      await updateProduct(rt, viewer, target.productId.toLowerCase(), parsed.data);
      return answer({ kind: "saved", id: target.productId });
    }
    // The options and variant table (issue 22): JSON lists, checked here and again against what
    // is stored by the catalog module, all or nothing.
    if (target.kind === "update" && intent === "variant-options") {
      const parsed = productOptionsSchema.safeParse(jsonField(form, "options"));
      if (!parsed.success) return invalid(pathErrors("options", parsed.error));
      await setProductOptions(rt.db, viewer, target.productId.toLowerCase(), parsed.data);
      return answer({ kind: "variants", message: variantText.optionsSaved });
    }
    if (target.kind === "update" && intent === "variant-update") {
      const parsed = variantRowsSchema.safeParse(jsonField(form, "variants"));
      if (!parsed.success) return invalid(pathErrors("variants", parsed.error));
      await updateVariants(rt.db, viewer, target.productId.toLowerCase(), parsed.data);
      const one = parsed.data.length === 1 && parsed.data[0].isActive === false;
      return answer({
        kind: "variants",
        message: one ? variantText.variantDeactivated : variantText.variantsSaved,
      });
    }
    return answer({ kind: "failed", message: "Unknown request" }, 400);
  } catch (error) {
    if (error instanceof ProductInputError) {
      if (target.kind === "update" && error.status === 404) return notFound();
      return invalid(error.fieldErrors, error.status);
    }
    if (target.kind === "create") {
      log.error("admin product create failed", { error, userId: viewer.id, intent });
    } else {
      log.error("admin product update failed", {
        error,
        userId: viewer.id,
        productId: target.productId,
      });
    }
    return answer({ kind: "failed" }, 500);
  }
}
