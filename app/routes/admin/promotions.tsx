import { ImagePlus, Megaphone, Pencil, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { data, useFetcher } from "react-router";
import { errorId, FieldError, FormField } from "~/components/account/form-field";
import { AdminDate } from "~/components/admin/admin-date";
import { ProductImage } from "~/components/product/product-image";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import type { ToastOptions } from "~/components/ui/use-toast";
import { formFile, readLimitedForm } from "~/lib/content-uploads.server.ts";
import { log } from "~/lib/log.server.ts";
import { type DiscountOption, discountOptions } from "~/modules/discounts/admin.server.ts";
import {
  type AdminPromotion,
  createPromotion,
  deletePromotion,
  listPromotionsForAdmin,
  PromotionDiscountError,
  PromotionImageError,
  PromotionNotFoundError,
  updatePromotion,
} from "~/modules/promotions/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_LABEL,
  UPLOAD_ACCEPT,
  uploadText,
} from "~/rules/admin-uploads.ts";
import { discountStatusLabel } from "~/rules/discount-display.ts";
import { isUuid } from "~/rules/ids.ts";
import { PROMOTION_LIMITS, promotionErrors, promotionSchema } from "~/rules/promotion-schema.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/promotions";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const [promotions, discounts] = await Promise.all([
    listPromotionsForAdmin(db),
    discountOptions(db),
  ]);
  return { promotions, discounts };
}

type ActionResult =
  | { ok: true; message: string }
  | { ok: false; title: string; description: string; fieldErrors?: Record<string, string> };

/** Each outcome's toast: the saved/removed message, or what went wrong. */
const toastOf = (result: ActionResult): ToastOptions =>
  result.ok
    ? { title: result.message }
    : { title: result.title, description: result.description, variant: "destructive" };

const failed = (
  status: number,
  title: string,
  description: string,
  fieldErrors?: Record<string, string>,
) => data<ActionResult>({ ok: false, title, description, fieldErrors }, { status });

const imageMessages: Record<PromotionImageError["reason"], string> = {
  "too-large": uploadText.tooLarge,
  "not-an-image": uploadText.notAnImage,
  unreadable: uploadText.unreadable,
};

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readLimitedForm(request, MAX_UPLOAD_BYTES, {
    title: uploadText.failedTitle,
    description: uploadText.tooLarge,
  });
  const intent = form.get("intent");
  const { db, storage } = await runtime();
  const id = String(form.get("id") ?? "");
  if ((intent === "update" || intent === "delete") && !isUuid(id)) {
    return failed(404, "Failed to update", "This promotion no longer exists.");
  }
  try {
    if (intent === "delete") {
      await deletePromotion(db, viewer, id);
      return data<ActionResult>({ ok: true, message: "Promotion deleted" });
    }
    if (intent !== "create" && intent !== "update") {
      return failed(400, "Failed to save", "Unknown request.");
    }
    const parsed = promotionSchema.safeParse({
      name: form.get("name") ?? undefined,
      description: form.get("description") ?? undefined,
      discount: form.get("discount") ?? undefined,
      cta: form.get("cta") ?? undefined,
      discountId: form.get("discountId") ?? undefined,
      whenDiscountEnds: form.get("whenDiscountEnds") ?? undefined,
    });
    if (!parsed.success) {
      return failed(
        400,
        intent === "create" ? "Failed to save" : "Failed to update",
        "Please check the highlighted fields.",
        promotionErrors(parsed.error),
      );
    }
    const file = formFile(form, "image");
    const upload = file
      ? { bytes: Buffer.from(await file.arrayBuffer()), filename: file.name }
      : null;
    if (intent === "create") {
      await createPromotion({ db, storage }, viewer, parsed.data, upload);
      return data<ActionResult>({ ok: true, message: "Promotion created" });
    }
    await updatePromotion(
      { db, storage },
      viewer,
      id,
      parsed.data,
      upload,
      form.get("removeImage") === "on",
    );
    return data<ActionResult>({ ok: true, message: "Promotion updated" });
  } catch (error) {
    if (error instanceof PromotionImageError) {
      return failed(
        error.reason === "too-large" ? 413 : 400,
        uploadText.failedTitle,
        imageMessages[error.reason],
        {
          image: imageMessages[error.reason],
        },
      );
    }
    if (error instanceof PromotionDiscountError) {
      const message = "That discount no longer exists. Choose another, or none.";
      return failed(400, intent === "create" ? "Failed to save" : "Failed to update", message, {
        discountId: message,
      });
    }
    if (error instanceof PromotionNotFoundError) {
      return failed(404, "Failed to update", "This promotion no longer exists.");
    }
    log.error("promotion change failed", { error, userId: viewer.id, intent });
    return failed(
      500,
      intent === "create" ? "Failed to save" : "Failed to update",
      "Please try again.",
    );
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Promotions · Admin",
    description: "Create and retire the offers in the Special Offers section.",
    path: "/admin/promotions",
    origin: originFrom(matches),
    noindex: true,
  });
}

type Editing = { mode: "create" } | { mode: "edit"; promotion: AdminPromotion };

export default function AdminPromotions({ loaderData }: Route.ComponentProps) {
  const { promotions, discounts } = loaderData;
  const discountName = (id: string | null) => {
    const d = discounts.find((x) => x.id === id);
    return d ? (d.code ? `${d.name} (${d.code})` : `${d.name} (automatic)`) : null;
  };
  const [editing, setEditing] = useState<Editing | null>(null);
  const [open, setOpen] = useState(false);
  const [session, setSession] = useState(0);
  const [deleting, setDeleting] = useState<AdminPromotion | null>(null);
  const remover = useFetcher<ActionResult>();

  useOutcomeToast(remover, toastOf);

  const openEditor = (next: Editing) => {
    setEditing(next);
    setSession((n) => n + 1);
    setOpen(true);
  };

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-3">
          <Megaphone aria-hidden="true" className="size-8 shrink-0 text-primary" />
          <div>
            <h1 className="font-bold text-3xl tracking-tight">Promotions</h1>
            <p className="text-muted-foreground">
              Shown newest first in the home page's Special Offers.
            </p>
          </div>
        </div>
        <Button
          type="button"
          onClick={() => openEditor({ mode: "create" })}
          className="max-sm:w-full"
        >
          <Plus aria-hidden="true" />
          New promotion
        </Button>
      </div>

      {promotions.length === 0 ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">
          No promotions yet. The home page's Special Offers shows only the newsletter box.
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {promotions.map((p) => (
            <li
              key={p.id}
              className="flex flex-col overflow-hidden rounded-xl border bg-card"
              data-testid="admin-promotion"
            >
              <ProductImage
                src={p.image}
                alt=""
                sizes="(min-width: 1024px) 30vw, (min-width: 640px) 45vw, 90vw"
                className="aspect-[4/3] w-full object-cover"
              />
              <div className="flex flex-1 flex-col gap-2 p-4">
                <h2 className="break-words font-semibold text-lg">{p.name}</h2>
                {p.discount ? (
                  <p className="font-semibold text-primary text-sm">{p.discount}</p>
                ) : null}
                {p.description ? (
                  <p className="line-clamp-3 text-muted-foreground text-sm">{p.description}</p>
                ) : null}
                {p.cta ? <p className="text-sm">Button: {p.cta}</p> : null}
                {p.discountId ? (
                  <p className="text-sm" data-testid="promotion-discount">
                    Discount: {discountName(p.discountId) ?? "archived"}
                    {p.hideWhenDiscountEnds ? " · hides when it ends" : ""}
                  </p>
                ) : null}
                <p className="mt-auto text-muted-foreground text-xs">
                  Updated <AdminDate value={p.updatedAt} />
                </p>
                <div className="flex gap-2">
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    aria-label={`Edit ${p.name}`}
                    onClick={() => openEditor({ mode: "edit", promotion: p })}
                  >
                    <Pencil aria-hidden="true" />
                    Edit
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    aria-label={`Delete ${p.name}`}
                    disabled={remover.state !== "idle"}
                    onClick={() => setDeleting(p)}
                  >
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      <Dialog open={open} onOpenChange={setOpen}>
        {editing ? (
          <PromotionForm
            key={session}
            editing={editing}
            discounts={discounts}
            onDone={() => setOpen(false)}
          />
        ) : null}
      </Dialog>

      <AlertDialog open={deleting !== null} onOpenChange={(o) => (o ? null : setDeleting(null))}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this promotion?</AlertDialogTitle>
            <AlertDialogDescription>
              "{deleting?.name}" will no longer appear in Special Offers.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (!deleting) return;
                remover.submit({ intent: "delete", id: deleting.id }, { method: "post" });
                setDeleting(null);
              }}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function PromotionForm({
  editing,
  discounts,
  onDone,
}: {
  editing: Editing;
  discounts: DiscountOption[];
  onDone: () => void;
}) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const id = useId();
  const existing = editing.mode === "edit" ? editing.promotion : null;
  const [preview, setPreview] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const result = fetcher.data;
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  useOutcomeToast(fetcher, toastOf, (outcome) => {
    if (outcome.ok) onDone();
  });

  const onFile = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setPreview(file ? URL.createObjectURL(file) : null);
    // A quick check in the browser; the server decides by the file's content.
    if (file && file.size > MAX_UPLOAD_BYTES) {
      setFileError(uploadText.tooLarge);
      e.target.value = "";
      setPreview(null);
    } else {
      setFileError(undefined);
    }
  };

  const imageError = fileError ?? errors.image;
  return (
    <DialogContent aria-busy={busy}>
      <DialogHeader>
        <DialogTitle>{existing ? "Edit promotion" : "New promotion"}</DialogTitle>
        <DialogDescription>
          {existing
            ? `Changes show in Special Offers as soon as you save.`
            : "It appears first in the home page's Special Offers."}
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form method="post" encType="multipart/form-data" noValidate className="grid gap-4">
        <input type="hidden" name="intent" value={existing ? "update" : "create"} />
        {existing ? <input type="hidden" name="id" value={existing.id} /> : null}
        <fieldset disabled={busy} className="grid gap-4">
          <FormField
            id={`${id}-name`}
            name="name"
            label="Name"
            required
            maxLength={PROMOTION_LIMITS.name}
            defaultValue={existing?.name}
            error={errors.name}
          />
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea
              id={`${id}-description`}
              name="description"
              maxLength={PROMOTION_LIMITS.description}
              defaultValue={existing?.description}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={errors.description ? errorId(`${id}-description`) : undefined}
            />
            <FieldError id={`${id}-description`} message={errors.description} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              id={`${id}-discount`}
              name="discount"
              label="Discount"
              hint="Free text, e.g. 20% OFF"
              maxLength={PROMOTION_LIMITS.discount}
              defaultValue={existing?.discount ?? ""}
              error={errors.discount}
            />
            <FormField
              id={`${id}-cta`}
              name="cta"
              label="Button text"
              hint="e.g. Shop Festive Decor"
              maxLength={PROMOTION_LIMITS.cta}
              defaultValue={existing?.cta ?? ""}
              error={errors.cta}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-discountId`}>Code or offer on the card</Label>
            <select
              id={`${id}-discountId`}
              name="discountId"
              defaultValue={existing?.discountId ?? ""}
              aria-invalid={errors.discountId ? true : undefined}
              aria-describedby={`${id}-discountId-hint${errors.discountId ? ` ${errorId(`${id}-discountId`)}` : ""}`}
              className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
            >
              <option value="">None</option>
              {existing?.discountId && !discounts.some((d) => d.id === existing.discountId) ? (
                <option value={existing.discountId}>The archived discount it carries</option>
              ) : null}
              {discounts.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} · {d.code ?? "automatic"} · {d.summary} ({discountStatusLabel[d.status]})
                </option>
              ))}
            </select>
            <p id={`${id}-discountId-hint`} className="text-muted-foreground text-xs">
              The card shows its code with a Copy button (or "Applied automatically") and its end
              date.
            </p>
            <FieldError id={`${id}-discountId`} message={errors.discountId} />
            <fieldset className="grid gap-1.5">
              <legend className="mb-1 font-medium text-sm">When the code or offer ends</legend>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="whenDiscountEnds"
                  value="say"
                  defaultChecked={!existing?.hideWhenDiscountEnds}
                  className="size-4 accent-primary"
                />
                Keep the card and say "This offer has ended"
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="whenDiscountEnds"
                  value="hide"
                  defaultChecked={existing?.hideWhenDiscountEnds ?? false}
                  className="size-4 accent-primary"
                />
                Hide the card
              </label>
            </fieldset>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-image`}>
              <ImagePlus aria-hidden="true" className="size-4" />
              Image {existing?.image ? "(choose one to replace the current image)" : "(optional)"}
            </Label>
            <input
              id={`${id}-image`}
              name="image"
              type="file"
              accept={UPLOAD_ACCEPT}
              onChange={onFile}
              aria-invalid={imageError ? true : undefined}
              aria-describedby={`${id}-image-hint${imageError ? ` ${errorId(`${id}-image`)}` : ""}`}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-2 file:font-medium file:text-sm"
            />
            <p id={`${id}-image-hint`} className="text-muted-foreground text-xs">
              JPEG, PNG, WebP or AVIF, up to {MAX_UPLOAD_LABEL}.
            </p>
            <FieldError id={`${id}-image`} message={imageError} />
            {preview || existing?.image ? (
              <img
                src={preview ?? existing?.image ?? ""}
                alt="Chosen promotion preview"
                className="aspect-[4/3] w-40 rounded-md border object-cover"
              />
            ) : null}
            {existing?.image && !preview ? (
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="removeImage" className="size-4 accent-primary" />
                Remove the current image
              </label>
            ) : null}
          </div>
        </fieldset>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : existing ? "Save changes" : "Create promotion"}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </DialogContent>
  );
}
