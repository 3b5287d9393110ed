import { ImagePlus, LoaderCircle, Plus, Trash2, Undo2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useBlocker, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { errorId, FieldError } from "~/components/account/form-field";
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
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import { type FieldErrors, fieldErrors } from "~/rules/account-schemas.ts";
import {
  BADGE_CHOICES,
  categoryInvalidText,
  createProductSchema,
  digitsInput,
  discountInput,
  FIXED_CURRENCY,
  featuresText,
  imageKey,
  priceInputValue,
  productFormInput,
  productText,
  ratingInput,
  reviewRatingInput,
  sanitizePriceInput,
  updateProductSchema,
} from "~/rules/admin-product-schema.ts";
import {
  MAX_PRODUCT_IMAGES,
  MAX_UPLOAD_BYTES,
  UPLOAD_ACCEPT,
  uploadText,
} from "~/rules/admin-uploads.ts";
import { formatPaise } from "~/rules/money.ts";
import { DEFAULT_PARCEL } from "~/rules/shipping-rates.ts";
import type { StaticReview, ProductImage as StoredImage } from "~/rules/stored-shapes.ts";
import { type UploadItem, useImageUploads } from "./use-image-uploads";

/*
 * The admin's product form, for adding an item (/admin/items) and editing one (/admin/items/:id).
 * Images are uploaded as soon as they are chosen (queued, one at a time, with progress); the form
 * then saves the product with the uploaded files' storage paths in one request.
 */

/** What the items and item actions answer. */
export type ProductActionResult =
  | { kind: "created"; id: string; name: string }
  | { kind: "saved"; id: string }
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "not-found" }
  | { kind: "failed"; message?: string }
  | { kind: "category"; name: string; created: boolean }
  /** The options and variant table (variant-editor.tsx). */
  | { kind: "variants"; message: string };

/** The product as the edit form starts from it (JSON from the loader). */
export type EditableProduct = {
  id: string;
  name: string;
  pricePaise: number;
  originalPricePaise: number | null;
  category: string;
  subcategory: string | null;
  description: string;
  discount: number;
  rating: number;
  reviewsCount: number;
  features: string[];
  featuresKv: Record<string, string> | null;
  badge: string | null;
  stockCount: number | null;
  weightGrams: number | null;
  boxLengthCm: number | null;
  boxWidthCm: number | null;
  boxHeightCm: number | null;
  isActive: boolean;
  inStock: boolean;
  images: StoredImage[];
  reviewsList: StaticReview[];
  /**
   * The product has options: its price and stock are its variants' (edited in "Options and
   * variants"), shown here read-only and never sent.
   */
  hasOptions?: boolean;
  /** A product with options whose active variants' prices differ ("from ₹X"). */
  priceVaries?: boolean;
};

type ReviewRow = {
  key: string;
  rating: string;
  name: string;
  title: string;
  review: string;
  date: string;
};

/** A random UUID, also on plain-http private networks where crypto.randomUUID is missing. */
export function newProductId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const selectClass =
  "flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs md:text-sm focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive";

let reviewKey = 0;
/** Save answers already acted on (shared by the form's instances: it remounts after a save). */
const handledResults = new WeakSet<object>();
const toRows = (reviews: StaticReview[]): ReviewRow[] =>
  reviews.map((r) => ({
    key: `review-${++reviewKey}`,
    rating: String(r.rating ?? ""),
    name: r.name ?? "",
    title: r.title ?? "",
    review: r.review ?? "",
    date: r.date ?? "",
  }));

export function ProductForm({
  mode,
  product,
  categories,
  onDone,
  onCancel,
}: {
  mode: "create" | "edit";
  /** The product being edited (edit mode). */
  product?: EditableProduct;
  categories: string[];
  /** After a successful save. */
  onDone?: (result: ProductActionResult) => void;
  /** Cancel without anything to discard, or after 'Leave now'. */
  onCancel: () => void;
}) {
  const creating = mode === "create";
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  // Keyed, so the answer to a save still reaches the form after it remounts with the saved data.
  const fetcher = useFetcher<ProductActionResult>({
    key: product ? `admin-product-${product.id}` : "admin-product-new",
  });
  const formRef = useRef<HTMLFormElement>(null);

  // A new product's id is made in the browser (its uploads go to its folder before it exists).
  const [productId, setProductId] = useState<string | null>(product?.id ?? null);
  useEffect(() => {
    if (!product) setProductId(newProductId());
  }, [product]);

  const uploads = useImageUploads(productId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [price, setPrice] = useState(priceInputValue(product?.pricePaise));
  const [originalPrice, setOriginalPrice] = useState(priceInputValue(product?.originalPricePaise));
  const [category, setCategory] = useState(product?.category ?? "");
  const [discount, setDiscount] = useState(product ? String(product.discount) : "");
  const [rating, setRating] = useState(product && product.rating > 0 ? String(product.rating) : "");
  const [reviewsCount, setReviewsCount] = useState(product ? String(product.reviewsCount) : "");
  const [stockCount, setStockCount] = useState(
    product?.stockCount === null || product?.stockCount === undefined
      ? ""
      : String(product.stockCount),
  );
  const initialBadge = product?.badge ?? "";
  const [badgeChoice, setBadgeChoice] = useState(
    initialBadge === ""
      ? ""
      : (BADGE_CHOICES as readonly string[]).includes(initialBadge)
        ? initialBadge
        : "other",
  );
  const [customBadge, setCustomBadge] = useState(
    (BADGE_CHOICES as readonly string[]).includes(initialBadge) ? "" : initialBadge,
  );
  const [isActive, setIsActive] = useState(product?.isActive ?? true);
  const [inStock, setInStock] = useState(product?.inStock ?? true);
  const variantsHoldStock = product?.hasOptions === true;
  const [marked, setMarked] = useState<Set<string>>(new Set());
  const [reviews, setReviews] = useState<ReviewRow[]>(() => toRows(product?.reviewsList ?? []));
  const [categoryOpen, setCategoryOpen] = useState(false);
  const [leaveOpen, setLeaveOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const saving = fetcher.state !== "idle";
  uploads.setSaving(saving);
  const categoryValid = categories.some((c) => c.toLowerCase() === category.trim().toLowerCase());
  // The spec's "Current category is not valid (…)" explains a category that is set but not
  // listed, or left unchosen once the admin has been to the field; on a new, untouched form it
  // read as an error before anything was done wrong.
  const [categoryTouched, setCategoryTouched] = useState(false);
  const categoryNote =
    Boolean(errors.category) || (!categoryValid && (category.trim() !== "" || categoryTouched));

  // ---- Leaving with unsaved uploads ------------------------------------------------------------
  const unsavedRef = useRef(false);
  unsavedRef.current = uploads.unsaved;
  const leavingRef = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsavedRef.current &&
      !leavingRef.current &&
      currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state === "blocked") setLeaveOpen(true);
  }, [blocker.state]);

  async function leaveNow() {
    leavingRef.current = true;
    setLeaving(true);
    try {
      await uploads.cancelAll();
      toast({ title: uploadText.cancelledTitle, description: uploadText.cancelledDescription });
    } catch {
      toast({
        variant: "destructive",
        title: uploadText.cancelledTitle,
        description: "No changes were saved, but some uploaded files could not be removed.",
      });
    }
    setLeaving(false);
    setLeaveOpen(false);
    if (blocker.state === "blocked") blocker.proceed();
    else onCancel();
    leavingRef.current = false;
  }

  function stay() {
    setLeaveOpen(false);
    if (blocker.state === "blocked") blocker.reset();
  }

  // ---- Saving ----------------------------------------------------------------------------------
  function showErrors(found: FieldErrors) {
    setErrors(found);
    if (found.price && !creating) {
      toast({
        variant: "destructive",
        title: productText.invalidPriceTitle,
        description: productText.invalidPriceDescription,
      });
    } else if (!found.price) {
      toast({
        variant: "destructive",
        title: productText.saveFailed,
        description: found.form ?? found.images ?? "Please correct the highlighted fields.",
      });
    }
    const first = Object.keys(found).find((k) => formRef.current?.elements.namedItem(k));
    const el = first ? formRef.current?.elements.namedItem(first) : null;
    if (el instanceof HTMLElement) el.focus();
  }

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handledResults.has(result)) return;
    handledResults.add(result);
    if (result.kind === "created" || result.kind === "saved") {
      uploads.committed();
      setErrors({});
      toast({
        title: result.kind === "created" ? productText.created : productText.saved,
        description: result.kind === "created" ? result.name : undefined,
      });
      onDone?.(result);
    } else if (result.kind === "invalid") {
      showErrors(result.fieldErrors);
    } else if (result.kind === "not-found") {
      toast({
        variant: "destructive",
        title: productText.saveFailed,
        description: "This product no longer exists.",
      });
    } else if (result.kind === "failed") {
      toast({
        variant: "destructive",
        title: productText.saveFailed,
        description: result.message || "Please try again.",
      });
    }
  });

  function formData(form: HTMLFormElement): FormData {
    const fd = new FormData(form);
    fd.set("intent", creating ? "create" : "update");
    if (creating && productId) fd.set("productId", productId);
    fd.set("isActive", String(isActive));
    if (!variantsHoldStock) fd.set("inStock", String(inStock));
    fd.set("badge", badgeChoice === "other" ? customBadge : badgeChoice);
    fd.delete("badgeChoice");
    fd.delete("customBadge");
    fd.delete("files");
    fd.set("images", JSON.stringify(uploads.uploadedPaths));
    if (!creating) {
      fd.set("removeImages", JSON.stringify([...marked]));
      fd.set(
        "reviewsList",
        JSON.stringify(
          reviews.map((r) => ({
            rating: r.rating === "" ? 0 : Number(r.rating),
            name: r.name,
            title: r.title,
            review: r.review,
            date: r.date || undefined,
          })),
        ),
      );
    }
    return fd;
  }

  /** What is wrong with the form as it stands (the browser's half of the server's checks). */
  function validate(fd: FormData): FieldErrors {
    const schema = creating ? createProductSchema : updateProductSchema;
    const parsed = schema.safeParse(productFormInput(fd));
    const found: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    // Read from the form, not state: on a change event the state has not caught up yet.
    const chosen = String(fd.get("category") ?? "");
    const listed = categories.some((c) => c.toLowerCase() === chosen.trim().toLowerCase());
    // Editing: a product filed under a category that is no longer listed keeps it until changed.
    const kept = !creating && (product?.category === chosen || !chosen.trim());
    if (!found.category && !listed && !kept) found.category = categoryInvalidText(chosen);
    return found;
  }

  /**
   * After a failed save, each change checks the form again: an error goes as soon as its field is
   * put right (it once stayed, red, until the next save), and a field still wrong keeps its
   * message. Fields with no error yet get none before the next save.
   */
  function recheck(event: React.FormEvent<HTMLFormElement>) {
    if (Object.keys(errors).length === 0) return;
    const found = validate(formData(event.currentTarget));
    setErrors((shown) => {
      const kept: FieldErrors = {};
      for (const key of Object.keys(shown)) if (found[key]) kept[key] = found[key];
      return kept;
    });
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || leaving) return;
    if (!productId) return;
    if (uploads.busy) {
      toast({
        title: "Images are still uploading",
        description: "Please wait until every image has uploaded, then save.",
      });
      return;
    }
    const fd = formData(event.currentTarget);
    const found = validate(fd);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    uploads.setSaving(true);
    fetcher.submit(fd, { method: "post" });
  }

  function chooseFiles(list: FileList | null) {
    if (!list || list.length === 0) return;
    const kept = (product?.images.length ?? 0) - marked.size;
    const room = MAX_PRODUCT_IMAGES - kept - uploads.items.length;
    const chosen: File[] = [];
    for (const file of Array.from(list)) {
      if (file.size > MAX_UPLOAD_BYTES) {
        toast({
          variant: "destructive",
          title: uploadText.failedTitle,
          description: `${file.name}: ${uploadText.tooLarge}`,
        });
        continue;
      }
      chosen.push(file);
    }
    if (chosen.length > room) {
      toast({
        variant: "destructive",
        title: uploadText.failedTitle,
        description: productText.tooManyImages,
      });
    }
    uploads.add(chosen.slice(0, Math.max(0, room)));
  }

  const fieldProps = (name: string) => ({
    id: id(name),
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? errorId(id(name)) : undefined,
  });
  const disabled = saving || leaving;

  return (
    <>
      <form
        ref={formRef}
        method="post"
        noValidate
        onSubmit={submit}
        onChange={recheck}
        aria-busy={saving}
        className="grid gap-6"
      >
        <input type="hidden" name="intent" value={creating ? "create" : "update"} />
        {creating ? <input type="hidden" name="productId" value={productId ?? ""} /> : null}
        {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}

        <fieldset disabled={disabled} className="grid gap-4 sm:grid-cols-2">
          <legend className="sr-only">Details</legend>
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={id("name")}>Product name{creating ? " *" : ""}</Label>
            <Input
              {...fieldProps("name")}
              defaultValue={product?.name ?? ""}
              maxLength={200}
              autoComplete="off"
            />
            <FieldError id={id("name")} message={errors.name} />
          </div>

          {variantsHoldStock && product ? (
            <VariantPriceAndStock product={product} />
          ) : (
            <>
              <div className="grid gap-2">
                <Label htmlFor={id("price")}>Price (₹){creating ? " *" : ""}</Label>
                <Input
                  {...fieldProps("price")}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0.00"
                  value={price}
                  onChange={(e) => setPrice(sanitizePriceInput(e.target.value))}
                />
                {errors.price ? (
                  creating ? (
                    <p id={errorId(id("price"))} role="alert" className="text-destructive text-sm">
                      {errors.price}
                    </p>
                  ) : (
                    <FieldError id={id("price")} message={errors.price} />
                  )
                ) : null}
              </div>

              <div className="grid gap-2">
                <Label htmlFor={id("originalPrice")}>Original price (₹, optional)</Label>
                <Input
                  {...fieldProps("originalPrice")}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="Shown struck through"
                  value={originalPrice}
                  onChange={(e) => setOriginalPrice(sanitizePriceInput(e.target.value))}
                />
                <FieldError id={id("originalPrice")} message={errors.originalPrice} />
              </div>
            </>
          )}

          <div className="grid gap-2">
            <Label htmlFor={id("category")}>Category{creating ? " *" : ""}</Label>
            <div className="flex gap-2">
              <select
                {...fieldProps("category")}
                aria-describedby={categoryNote ? `${id("category")}-note` : undefined}
                className={selectClass}
                value={category}
                onChange={(e) => {
                  setCategory(e.target.value);
                  setCategoryTouched(true);
                }}
              >
                <option value="">Select a category</option>
                {!categoryValid && category ? <option value={category}>{category}</option> : null}
                {categories.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
              <Button
                type="button"
                variant="outline"
                onClick={() => setCategoryOpen(true)}
                className="shrink-0"
              >
                <Plus aria-hidden="true" />
                New<span className="sr-only"> category</span>
              </Button>
            </div>
            {categoryNote ? (
              <p
                id={`${id("category")}-note`}
                className={cn(
                  "text-sm",
                  errors.category ? "text-destructive" : "text-muted-foreground",
                )}
              >
                {errors.category ?? categoryInvalidText(category)}
              </p>
            ) : null}
          </div>

          <div className="grid gap-2">
            <Label htmlFor={id("subcategory")}>Subcategory (optional)</Label>
            <Input
              {...fieldProps("subcategory")}
              defaultValue={product?.subcategory ?? ""}
              maxLength={100}
              autoComplete="off"
            />
            <FieldError id={id("subcategory")} message={errors.subcategory} />
          </div>

          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={id("description")}>Description{creating ? " *" : ""}</Label>
            <Textarea
              {...fieldProps("description")}
              defaultValue={product?.description ?? ""}
              rows={4}
              maxLength={5000}
            />
            <FieldError id={id("description")} message={errors.description} />
          </div>

          <div className="grid gap-2">
            <Label htmlFor={id("discount")}>Discount (%)</Label>
            <Input
              {...fieldProps("discount")}
              inputMode="numeric"
              autoComplete="off"
              placeholder="0"
              value={discount}
              onChange={(e) => setDiscount(discountInput(e.target.value))}
            />
            <FieldError id={id("discount")} message={errors.discount} />
          </div>

          <div className="grid gap-2">
            <Label htmlFor={id("rating")}>Rating (1–5)</Label>
            <Input
              {...fieldProps("rating")}
              inputMode="numeric"
              autoComplete="off"
              placeholder={creating ? "No rating yet" : "Unchanged"}
              value={rating}
              onChange={(e) => setRating(ratingInput(e.target.value))}
            />
            <FieldError id={id("rating")} message={errors.rating} />
          </div>

          <div className="grid gap-2">
            <Label htmlFor={id("reviewsCount")}>Reviews count</Label>
            <Input
              {...fieldProps("reviewsCount")}
              inputMode="numeric"
              autoComplete="off"
              placeholder="0"
              value={reviewsCount}
              onChange={(e) => setReviewsCount(digitsInput(e.target.value))}
            />
            <FieldError id={id("reviewsCount")} message={errors.reviewsCount} />
          </div>

          {variantsHoldStock ? null : (
            <div className="grid gap-2">
              <Label htmlFor={id("stockCount")}>Stock count</Label>
              <Input
                {...fieldProps("stockCount")}
                aria-describedby={
                  errors.stockCount ? errorId(id("stockCount")) : `${id("stockCount")}-hint`
                }
                inputMode="numeric"
                autoComplete="off"
                placeholder="Not tracked"
                value={stockCount}
                onChange={(e) => setStockCount(digitsInput(e.target.value))}
              />
              <p id={`${id("stockCount")}-hint`} className="text-muted-foreground text-xs">
                Leave empty to not track stock.
              </p>
              <FieldError id={id("stockCount")} message={errors.stockCount} />
            </div>
          )}

          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">Shipping parcel</legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {(
                [
                  ["weightGrams", "Packed weight (g)", DEFAULT_PARCEL.weightGrams],
                  ["boxLengthCm", "Box length (cm)", DEFAULT_PARCEL.lengthCm],
                  ["boxWidthCm", "Box width (cm)", DEFAULT_PARCEL.widthCm],
                  ["boxHeightCm", "Box height (cm)", DEFAULT_PARCEL.heightCm],
                ] as const
              ).map(([name, label, fallback]) => (
                <div key={name} className="grid gap-1.5">
                  <Label htmlFor={id(name)}>{label}</Label>
                  <Input
                    {...fieldProps(name)}
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder={String(fallback)}
                    defaultValue={product?.[name] ?? ""}
                    onInput={(e) => {
                      e.currentTarget.value = digitsInput(e.currentTarget.value, 6);
                    }}
                  />
                  <FieldError id={id(name)} message={errors[name]} />
                </div>
              ))}
            </div>
            <p className="text-muted-foreground text-xs">
              The courier charges the greater of the packed weight and L×B×H ÷ 5000 kg. Empty: 250 g
              in a 15 × 15 × 10 cm box.
            </p>
          </fieldset>

          <div className="grid gap-2">
            <Label htmlFor={id("badgeChoice")}>Badge</Label>
            <select
              id={id("badgeChoice")}
              name="badgeChoice"
              className={selectClass}
              value={badgeChoice}
              onChange={(e) => setBadgeChoice(e.target.value)}
            >
              <option value="">None</option>
              {BADGE_CHOICES.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
              <option value="other">Other…</option>
            </select>
            {badgeChoice === "other" ? (
              <>
                <Label htmlFor={id("customBadge")} className="sr-only">
                  Badge text
                </Label>
                <Input
                  id={id("customBadge")}
                  name="customBadge"
                  placeholder="Badge text"
                  maxLength={40}
                  value={customBadge}
                  onChange={(e) => setCustomBadge(e.target.value)}
                  aria-invalid={errors.badge ? true : undefined}
                />
              </>
            ) : null}
            <FieldError id={id("badge")} message={errors.badge} />
          </div>

          <div className="grid gap-2">
            <Label htmlFor={id("currency")}>Currency</Label>
            <Input id={id("currency")} value={FIXED_CURRENCY} readOnly className="bg-muted" />
          </div>

          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={id("features")}>Features</Label>
            <Textarea
              {...fieldProps("features")}
              aria-describedby={`${id("features")}-hint${errors.features ? ` ${errorId(id("features"))}` : ""}`}
              defaultValue={product ? featuresText(product.features, product.featuresKv) : ""}
              rows={4}
              placeholder={"Hand-finished\nMaterial: PLA"}
            />
            <p id={`${id("features")}-hint`} className="text-muted-foreground text-xs">
              One per line, as text or as “key: value”.
            </p>
            <FieldError id={id("features")} message={errors.features} />
          </div>

          <div className="flex flex-wrap gap-6 sm:col-span-2">
            <div className="flex items-center gap-2">
              <input
                id={id("isActive")}
                type="checkbox"
                className="size-4 accent-primary"
                checked={isActive}
                onChange={(e) => setIsActive(e.target.checked)}
              />
              <Label htmlFor={id("isActive")}>Active (shown in the shop)</Label>
            </div>
            {variantsHoldStock ? null : (
              <div className="flex items-center gap-2">
                <input
                  id={id("inStock")}
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={inStock}
                  onChange={(e) => setInStock(e.target.checked)}
                />
                <Label htmlFor={id("inStock")}>In stock</Label>
              </div>
            )}
          </div>
        </fieldset>

        <fieldset disabled={leaving} className="grid gap-3">
          <legend className="mb-2 font-semibold text-lg">Images</legend>
          {product && product.images.length > 0 ? (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {product.images.map((image, i) => {
                const key = imageKey(image);
                const willDelete = marked.has(key);
                return (
                  <li
                    key={key}
                    className={cn(
                      "grid gap-2 rounded-lg border p-2",
                      willDelete && "border-destructive/60 bg-destructive/5",
                    )}
                  >
                    <div className="relative">
                      <ProductImage
                        src={image.url}
                        alt={`Image ${i + 1} of ${product.name}`}
                        sizes="200px"
                        className={cn(
                          "aspect-square w-full rounded-md object-cover",
                          willDelete && "opacity-40",
                        )}
                      />
                      {willDelete ? (
                        <Badge variant="destructive" className="absolute top-2 left-2">
                          Will delete
                        </Badge>
                      ) : null}
                    </div>
                    <Button
                      type="button"
                      size="sm"
                      variant={willDelete ? "outline" : "destructive"}
                      onClick={() =>
                        setMarked((set) => {
                          const next = new Set(set);
                          if (next.has(key)) next.delete(key);
                          else next.add(key);
                          return next;
                        })
                      }
                    >
                      {willDelete ? <Undo2 aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
                      {willDelete ? "Keep" : "Delete"}
                      <span className="sr-only"> image {i + 1}</span>
                    </Button>
                  </li>
                );
              })}
            </ul>
          ) : null}

          <div className="grid gap-2">
            <Label htmlFor={id("files")}>Add images</Label>
            <Input
              id={id("files")}
              name="files"
              type="file"
              multiple
              accept={UPLOAD_ACCEPT}
              disabled={!productId || leaving}
              aria-describedby={`${id("files")}-hint`}
              onChange={(e) => {
                chooseFiles(e.currentTarget.files);
                e.currentTarget.value = "";
              }}
              className="h-auto py-2"
            />
            <p id={`${id("files")}-hint`} className="text-muted-foreground text-xs">
              JPEG, PNG, WebP or AVIF, up to 10 MB each. Images upload one after another as soon as
              they are chosen; they become part of the product when you save.
            </p>
          </div>

          {uploads.items.length > 0 ? (
            <ul className="grid gap-2" aria-label="New images">
              {uploads.items.map((item) => (
                <UploadRow key={item.key} item={item} onRemove={() => uploads.remove(item.key)} />
              ))}
            </ul>
          ) : null}
          <FieldError id={id("images")} message={errors.images} />
        </fieldset>

        {creating ? null : (
          <ReviewsEditor rows={reviews} onChange={setReviews} disabled={disabled} uid={uid} />
        )}

        <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="outline"
            disabled={leaving}
            onClick={() => (uploads.unsaved ? setLeaveOpen(true) : onCancel())}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={disabled || !productId}>
            {saving ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
            {creating ? "Add item" : "Save changes"}
          </Button>
        </div>
      </form>

      <NewCategoryDialog
        open={categoryOpen}
        onOpenChange={setCategoryOpen}
        onAdded={(name) => setCategory(name)}
      />

      <AlertDialog
        open={leaveOpen}
        onOpenChange={(open) => {
          if (!open && !leaving) stay();
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Leave without saving?</AlertDialogTitle>
            <AlertDialogDescription>
              Images you uploaded here are not saved yet. Leaving stops the uploads, deletes the
              files already uploaded and saves no changes.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={leaving} onClick={stay}>
              Stay
            </AlertDialogCancel>
            <AlertDialogAction
              disabled={leaving}
              className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
              onClick={(e) => {
                e.preventDefault();
                void leaveNow();
              }}
            >
              {leaving ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
              Leave now
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function UploadRow({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const status =
    item.status === "queued"
      ? "Waiting…"
      : item.status === "uploading"
        ? item.progress >= 100
          ? "Processing…"
          : `Uploading ${item.progress}%`
        : item.status === "done"
          ? "Uploaded (not saved yet)"
          : `Failed: ${item.error ?? "Please try again."}`;
  return (
    <li className="flex items-center gap-3 rounded-lg border p-2">
      {item.status === "done" && item.url ? (
        <img
          src={item.url}
          alt={`New image: ${item.name}`}
          width={56}
          height={56}
          className="size-14 shrink-0 rounded-md object-cover"
        />
      ) : (
        <span className="flex size-14 shrink-0 items-center justify-center rounded-md bg-muted">
          <ImagePlus aria-hidden="true" className="size-5 text-muted-foreground" />
        </span>
      )}
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate font-medium text-sm">{item.name}</p>
        <div
          role="progressbar"
          aria-label={`Upload of ${item.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={item.progress}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn(
              "h-full rounded-full transition-[width]",
              item.status === "failed" ? "bg-destructive" : "bg-primary",
            )}
            style={{ width: `${item.progress}%` }}
          />
        </div>
        <p
          className={cn(
            "text-xs",
            item.status === "failed" ? "text-destructive" : "text-muted-foreground",
          )}
        >
          {status}
        </p>
      </div>
      <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
        Remove<span className="sr-only"> {item.name}</span>
      </Button>
    </li>
  );
}

function ReviewsEditor({
  rows,
  onChange,
  disabled,
  uid,
}: {
  rows: ReviewRow[];
  onChange: (rows: ReviewRow[]) => void;
  disabled: boolean;
  uid: string;
}) {
  const set = (key: string, changes: Partial<ReviewRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...changes } : r)));
  return (
    <fieldset disabled={disabled} className="grid gap-3">
      <legend className="mb-2 font-semibold text-lg">Reviews shown on the product page</legend>
      <p className="text-muted-foreground text-sm">
        Rating 0–5. Blank fields are left out; a review with no name, title or text is removed when
        you save.
      </p>
      {rows.length === 0 ? <p className="text-muted-foreground text-sm">No reviews.</p> : null}
      <ol className="grid gap-3">
        {rows.map((r, i) => {
          const fid = (f: string) => `${uid}-review-${r.key}-${f}`;
          return (
            <li
              key={r.key}
              className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[6rem_1fr_1fr]"
            >
              <p className="font-medium text-sm sm:col-span-3">Review {i + 1}</p>
              <div className="grid gap-1">
                <Label htmlFor={fid("rating")}>Rating (0–5)</Label>
                <Input
                  id={fid("rating")}
                  inputMode="numeric"
                  value={r.rating}
                  onChange={(e) => set(r.key, { rating: reviewRatingInput(e.target.value) })}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={fid("name")}>Reviewer name</Label>
                <Input
                  id={fid("name")}
                  value={r.name}
                  maxLength={100}
                  onChange={(e) => set(r.key, { name: e.target.value })}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={fid("title")}>Review title</Label>
                <Input
                  id={fid("title")}
                  value={r.title}
                  maxLength={100}
                  onChange={(e) => set(r.key, { title: e.target.value })}
                />
              </div>
              <div className="grid gap-1 sm:col-span-3">
                <Label htmlFor={fid("review")}>Review text</Label>
                <Textarea
                  id={fid("review")}
                  value={r.review}
                  maxLength={1000}
                  rows={2}
                  onChange={(e) => set(r.key, { review: e.target.value })}
                />
              </div>
              <div className="sm:col-span-3">
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
                >
                  <Trash2 aria-hidden="true" />
                  Remove review {i + 1}
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            onChange([
              ...rows,
              {
                key: `review-${++reviewKey}`,
                rating: "5",
                name: "",
                title: "",
                review: "",
                date: "",
              },
            ])
          }
        >
          <Plus aria-hidden="true" />
          Add review
        </Button>
      </div>
    </fieldset>
  );
}

function NewCategoryDialog({
  open,
  onOpenChange,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (name: string) => void;
}) {
  const fetcher = useFetcher<ProductActionResult>();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const handled = useRef(new WeakSet<object>());
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current.has(result)) return;
    handled.current.add(result);
    if (result.kind === "category") {
      onAdded(result.name);
      setName("");
      setError(null);
      onOpenChange(false);
      toast(
        result.created
          ? { title: productText.categoryAdded, description: result.name }
          : {
              title: "Already exists",
              description: `Category "${result.name}" is already present.`,
            },
      );
    } else if (result.kind === "invalid") {
      setError(Object.values(result.fieldErrors)[0] ?? "Please enter a category name.");
    } else {
      setError(productText.saveFailed);
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) {
          onOpenChange(next);
          if (!next) setError(null);
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New category</DialogTitle>
          <DialogDescription>
            The category is added to the list and chosen for this product.
          </DialogDescription>
        </DialogHeader>
        <form
          method="post"
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            // An empty name is ignored (SPEC.md §5).
            if (busy || name.trim() === "") return;
            fetcher.submit({ intent: "add-category", name: name.trim() }, { method: "post" });
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="new-category-name">Category name</Label>
            <Input
              id="new-category-name"
              name="name"
              value={name}
              maxLength={100}
              autoComplete="off"
              onChange={(e) => setName(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "new-category-error" : undefined}
            />
            {error ? (
              <p id="new-category-error" className="text-destructive text-sm">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              disabled={busy}
              onClick={() => onOpenChange(false)}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={busy || name.trim() === ""}>
              {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
              Add category
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * A product with options: what its variants add up to, read-only (the row is their summary,
 * decision 0015), and where to change it. Editing it here was overwritten by the next variant save.
 */
function VariantPriceAndStock({ product }: { product: EditableProduct }) {
  const stock =
    product.stockCount === null
      ? product.inStock
        ? "In stock (not counted)"
        : "Out of stock"
      : `${product.stockCount} in stock across its variants`;
  return (
    <div
      className="grid gap-1 rounded-md border bg-muted/40 p-3 sm:col-span-2"
      data-testid="variant-price-stock"
    >
      <p className="font-medium text-sm">Price and stock</p>
      <p className="text-sm">
        {product.priceVaries ? "From " : ""}
        {formatPaise(product.pricePaise)} · {stock}
      </p>
      <p className="text-muted-foreground text-sm">
        This product has options: set each variant's price and stock in{" "}
        <a
          href="#variants-heading"
          className="font-medium text-foreground underline underline-offset-4"
        >
          Options and variants
        </a>
        .
      </p>
    </div>
  );
}
