import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { errorId, FieldError } from "~/components/account/form-field";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import type { FieldErrors } from "~/rules/account-schemas.ts";
import { priceInputValue, sanitizePriceInput } from "~/rules/admin-product-schema.ts";
import type { ProductImage } from "~/rules/stored-shapes.ts";
import {
  MAX_VALUES_PER_OPTION,
  pathErrors,
  productOptionsSchema,
  variantRowsSchema,
} from "~/rules/variant-schema.ts";
import { MAX_OPTIONS, type ProductOption, type Variant } from "~/rules/variants.ts";
import type { ProductActionResult } from "./product-form";

/*
 * The admin product page's "Options and variants" (issue 22): the options (up to three, values in
 * order, a swatch for a colour's values), "Generate variants", and the variant table (SKU, price,
 * original price, stock, active, image) with a bulk price and stock for all or the selected rows.
 * The server checks everything again; a refused save writes nothing and its messages show here.
 */

type EditValue = { id?: string; value: string; swatch: string | null };
type EditOption = { id?: string; name: string; values: EditValue[] };
type EditRow = {
  id: string;
  label: string;
  sku: string;
  price: string;
  originalPrice: string;
  stockCount: string;
  isActive: boolean;
  image: string;
};

export type VariantEditorProps = {
  options: ProductOption[];
  variants: (Variant & { label: string })[];
  images: ProductImage[];
};

const isColour = (name: string) => /colou?r/i.test(name);

const rowOf = (v: VariantEditorProps["variants"][number]): EditRow => ({
  id: v.id,
  label: v.label,
  sku: v.sku ?? "",
  price: priceInputValue(v.pricePaise),
  originalPrice: priceInputValue(v.originalPricePaise),
  stockCount: v.stockCount === null ? "" : String(v.stockCount),
  isActive: v.isActive,
  image: v.images[0]?.url ?? "",
});

export function VariantEditor({ options, variants, images }: VariantEditorProps) {
  return (
    <section
      aria-labelledby="variants-heading"
      className="mt-8 rounded-xl border bg-card p-4 shadow-xs sm:p-6"
    >
      <h2 id="variants-heading" className="font-semibold text-xl">
        Options and variants
      </h2>
      <p className="mt-1 mb-4 text-muted-foreground text-sm">
        Up to {MAX_OPTIONS} options, such as Colour, Size or Material. Each combination of their
        values is a variant with its own SKU, price and stock.
      </p>
      <OptionsEditor options={options} />
      {options.length > 0 ? <VariantTable variants={variants} images={images} /> : null}
    </section>
  );
}

// ---- Options -----------------------------------------------------------------------------------

function OptionsEditor({ options }: { options: ProductOption[] }) {
  const uid = useId();
  const fetcher = useFetcher<ProductActionResult>({ key: "admin-variant-options" });
  const [edit, setEdit] = useState<EditOption[]>(() =>
    options.map((o) => ({
      id: o.id,
      name: o.name,
      values: o.values.map((v) => ({ id: v.id, value: v.value, swatch: v.swatch })),
    })),
  );
  const [local, setLocal] = useState<FieldErrors>({});
  const serverErrors =
    fetcher.state === "idle" && fetcher.data?.kind === "invalid" ? fetcher.data.fieldErrors : {};
  const errors = { ...serverErrors, ...local };
  useOutcomeToast(fetcher, (r) =>
    r.kind === "variants"
      ? { title: r.message }
      : r.kind === "failed" || r.kind === "not-found"
        ? { title: "Failed to save", variant: "destructive" }
        : null,
  );

  const change = (i: number, f: (o: EditOption) => EditOption) =>
    setEdit((list) => list.map((o, j) => (j === i ? f(o) : o)));
  const moveValue = (i: number, j: number, by: -1 | 1) =>
    change(i, (o) => {
      const values = [...o.values];
      const [v] = values.splice(j, 1);
      values.splice(j + by, 0, v);
      return { ...o, values };
    });

  const submit = () => {
    const parsed = productOptionsSchema.safeParse(edit);
    if (!parsed.success) {
      setLocal(pathErrors("options", parsed.error));
      return;
    }
    setLocal({});
    fetcher.submit(
      { intent: "variant-options", options: JSON.stringify(parsed.data) },
      { method: "post" },
    );
  };
  const busy = fetcher.state !== "idle";
  const formError = errors.options ?? errors.form;

  return (
    <div className="grid gap-4">
      {formError ? <FormAlert>{formError}</FormAlert> : null}
      {edit.map((option, i) => {
        const nameId = `${uid}-option-${i}`;
        return (
          <fieldset key={option.id ?? `new-${i}`} className="grid gap-3 rounded-lg border p-3">
            <legend className="px-1 font-medium text-sm">Option {i + 1}</legend>
            <div className="flex flex-wrap items-end gap-2">
              <div className="grid min-w-48 flex-1 gap-1">
                <Label htmlFor={nameId}>Option name</Label>
                <Input
                  id={nameId}
                  value={option.name}
                  placeholder="Colour"
                  maxLength={40}
                  aria-invalid={!!errors[`options.${i}.name`]}
                  aria-describedby={errorId(nameId)}
                  onChange={(e) => change(i, (o) => ({ ...o, name: e.target.value }))}
                />
                <FieldError id={nameId} message={errors[`options.${i}.name`]} />
              </div>
              <Button
                type="button"
                variant="outline"
                onClick={() => setEdit((list) => list.filter((_, j) => j !== i))}
              >
                <Trash2 aria-hidden="true" />
                Remove option
              </Button>
            </div>
            <ol className="grid gap-2">
              {option.values.map((value, j) => {
                const valueId = `${uid}-option-${i}-value-${j}`;
                const message =
                  errors[`options.${i}.values.${j}.value`] ??
                  errors[`options.${i}.values.${j}.swatch`];
                return (
                  <li key={value.id ?? `new-${j}`} className="grid gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Label htmlFor={valueId} className="sr-only">
                        {`${option.name || `Option ${i + 1}`} value ${j + 1}`}
                      </Label>
                      <Input
                        id={valueId}
                        value={value.value}
                        maxLength={60}
                        className="w-48"
                        aria-invalid={!!message}
                        aria-describedby={errorId(valueId)}
                        onChange={(e) =>
                          change(i, (o) => ({
                            ...o,
                            values: o.values.map((v, k) =>
                              k === j ? { ...v, value: e.target.value } : v,
                            ),
                          }))
                        }
                      />
                      {isColour(option.name) ? (
                        <>
                          <input
                            type="color"
                            aria-label={`Swatch of ${value.value || `value ${j + 1}`}`}
                            value={value.swatch ?? "#808080"}
                            className="h-9 w-10 cursor-pointer rounded border bg-transparent"
                            onChange={(e) =>
                              change(i, (o) => ({
                                ...o,
                                values: o.values.map((v, k) =>
                                  k === j ? { ...v, swatch: e.target.value.toLowerCase() } : v,
                                ),
                              }))
                            }
                          />
                          {value.swatch ? (
                            <span className="text-muted-foreground text-xs">{value.swatch}</span>
                          ) : (
                            <span className="text-muted-foreground text-xs">No swatch</span>
                          )}
                        </>
                      ) : null}
                      <Button
                        type="button"
                        size="icon"
                        variant="ghost"
                        aria-label={`Move ${value.value || `value ${j + 1}`} up`}
                        disabled={j === 0}
                        onClick={() => moveValue(i, j, -1)}
                      >
                        <ArrowUp aria-hidden="true" />
                      </Button>
                      <Button
                        type="button"
                        size="icon"
                        variant="ghost"
                        aria-label={`Move ${value.value || `value ${j + 1}`} down`}
                        disabled={j === option.values.length - 1}
                        onClick={() => moveValue(i, j, 1)}
                      >
                        <ArrowDown aria-hidden="true" />
                      </Button>
                      <Button
                        type="button"
                        size="icon"
                        variant="ghost"
                        aria-label={`Remove ${value.value || `value ${j + 1}`}`}
                        onClick={() =>
                          change(i, (o) => ({ ...o, values: o.values.filter((_, k) => k !== j) }))
                        }
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                    <FieldError id={valueId} message={message} />
                  </li>
                );
              })}
            </ol>
            <FieldError id={`${nameId}-values`} message={errors[`options.${i}.values`]} />
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={option.values.length >= MAX_VALUES_PER_OPTION}
                onClick={() =>
                  change(i, (o) => ({
                    ...o,
                    values: [...o.values, { value: "", swatch: null }],
                  }))
                }
              >
                <Plus aria-hidden="true" />
                {`Add a value to ${option.name || `option ${i + 1}`}`}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={edit.length >= MAX_OPTIONS}
          onClick={() =>
            setEdit((list) => [...list, { name: "", values: [{ value: "", swatch: null }] }])
          }
        >
          <Plus aria-hidden="true" />
          Add option
        </Button>
        <Button type="button" onClick={submit} disabled={busy}>
          {busy ? "Saving…" : "Generate variants"}
        </Button>
      </div>
    </div>
  );
}

// ---- Variant table -----------------------------------------------------------------------------

function VariantTable({
  variants,
  images,
}: {
  variants: VariantEditorProps["variants"];
  images: ProductImage[];
}) {
  const uid = useId();
  const fetcher = useFetcher<ProductActionResult>({ key: "admin-variant-table" });
  const [rows, setRows] = useState<EditRow[]>(() => variants.map(rowOf));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkPrice, setBulkPrice] = useState("");
  const [bulkStock, setBulkStock] = useState("");
  const [local, setLocal] = useState<FieldErrors>({});
  // Row errors are keyed by the index of the row in what was sent.
  const [sent, setSent] = useState<string[]>([]);
  const serverErrors =
    fetcher.state === "idle" && fetcher.data?.kind === "invalid" ? fetcher.data.fieldErrors : {};
  useOutcomeToast(fetcher, (r) =>
    r.kind === "variants"
      ? { title: r.message }
      : r.kind === "invalid"
        ? { title: "Failed to save", description: Object.values(r.fieldErrors)[0] }
        : r.kind === "failed" || r.kind === "not-found"
          ? { title: "Failed to save", variant: "destructive" }
          : null,
  );
  const errorOf = (id: string, field: string) => {
    const i = sent.indexOf(id);
    if (i === -1) return undefined;
    return local[`variants.${i}.${field}`] ?? serverErrors[`variants.${i}.${field}`];
  };

  const original = new Map(variants.map((v) => [v.id, rowOf(v)]));
  const changedRows = rows.filter((r) => {
    const o = original.get(r.id);
    return !o || JSON.stringify(o) !== JSON.stringify(r);
  });
  const set = (id: string, patch: Partial<EditRow>) =>
    setRows((list) => list.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const send = (list: EditRow[]) => {
    const body = list.map((r) => ({
      id: r.id,
      sku: r.sku,
      price: r.price,
      originalPrice: r.originalPrice,
      stockCount: r.stockCount,
      isActive: r.isActive,
      image: r.image,
    }));
    setSent(list.map((r) => r.id));
    const parsed = variantRowsSchema.safeParse(body);
    if (!parsed.success) {
      setLocal(pathErrors("variants", parsed.error));
      return;
    }
    setLocal({});
    fetcher.submit(
      { intent: "variant-update", variants: JSON.stringify(body) },
      { method: "post" },
    );
  };

  const applyBulk = (which: "all" | "selected") => {
    setRows((list) =>
      list.map((r) =>
        which === "all" || selected.has(r.id)
          ? {
              ...r,
              ...(bulkPrice !== "" ? { price: bulkPrice } : {}),
              ...(bulkStock !== "" ? { stockCount: bulkStock } : {}),
            }
          : r,
      ),
    );
  };
  const busy = fetcher.state !== "idle";
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

  return (
    <div className="mt-6 grid gap-3">
      <h3 className="font-semibold text-lg">Variants</h3>
      <div className="flex flex-wrap items-end gap-2 rounded-lg border bg-muted/40 p-3">
        <div className="grid gap-1">
          <Label htmlFor={`${uid}-bulk-price`}>Price for many (₹)</Label>
          <Input
            id={`${uid}-bulk-price`}
            inputMode="decimal"
            className="w-32"
            value={bulkPrice}
            onChange={(e) => setBulkPrice(sanitizePriceInput(e.target.value))}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${uid}-bulk-stock`}>Stock for many</Label>
          <Input
            id={`${uid}-bulk-stock`}
            inputMode="numeric"
            className="w-28"
            value={bulkStock}
            onChange={(e) => setBulkStock(e.target.value.replace(/\D/g, "").slice(0, 9))}
          />
        </div>
        <Button
          type="button"
          variant="outline"
          disabled={selected.size === 0}
          onClick={() => applyBulk("selected")}
        >
          Apply to selected
        </Button>
        <Button type="button" variant="outline" onClick={() => applyBulk("all")}>
          Apply to all
        </Button>
      </div>
      {/* Positioned, so the table's screen-reader-only labels (absolutely placed) scroll inside
          it: they placed themselves against the page and made a phone's page 460 px too wide. */}
      <div className="relative overflow-x-auto rounded-lg border">
        <table className="w-full min-w-[56rem] text-sm">
          <thead className="bg-muted/50 text-left">
            <tr>
              <th scope="col" className="p-2">
                <input
                  type="checkbox"
                  aria-label="Select all variants"
                  checked={allSelected}
                  onChange={(e) =>
                    setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())
                  }
                />
              </th>
              <th scope="col" className="p-2">
                Variant
              </th>
              <th scope="col" className="p-2">
                SKU
              </th>
              <th scope="col" className="p-2">
                Price (₹)
              </th>
              <th scope="col" className="p-2">
                Original price (₹)
              </th>
              <th scope="col" className="p-2">
                Stock
              </th>
              <th scope="col" className="p-2">
                Active
              </th>
              <th scope="col" className="p-2">
                Image
              </th>
              <th scope="col" className="p-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const name = r.label || "Retired combination";
              const cell = (field: string) => `${uid}-${r.id}-${field}`;
              const messages = ["sku", "price", "originalPrice", "stockCount", "image", "id"]
                .map((f) => errorOf(r.id, f))
                .filter(Boolean);
              return (
                <tr key={r.id} className={`border-t align-top ${r.isActive ? "" : "opacity-70"}`}>
                  <td className="p-2">
                    <input
                      type="checkbox"
                      aria-label={`Select ${name}`}
                      checked={selected.has(r.id)}
                      onChange={(e) =>
                        setSelected((s) => {
                          const next = new Set(s);
                          if (e.target.checked) next.add(r.id);
                          else next.delete(r.id);
                          return next;
                        })
                      }
                    />
                  </td>
                  <th scope="row" className="p-2 text-left font-medium">
                    {name}
                    {messages.length > 0 ? (
                      <p id={errorId(cell("row"))} className="font-normal text-destructive">
                        {messages.join(" ")}
                      </p>
                    ) : null}
                  </th>
                  <td className="p-2">
                    <Input
                      aria-label={`SKU of ${name}`}
                      value={r.sku}
                      maxLength={64}
                      className="w-36"
                      aria-invalid={!!errorOf(r.id, "sku")}
                      onChange={(e) => set(r.id, { sku: e.target.value })}
                    />
                  </td>
                  <td className="p-2">
                    <Input
                      aria-label={`Price of ${name}`}
                      inputMode="decimal"
                      value={r.price}
                      className="w-28"
                      aria-invalid={!!errorOf(r.id, "price")}
                      onChange={(e) => set(r.id, { price: sanitizePriceInput(e.target.value) })}
                    />
                  </td>
                  <td className="p-2">
                    <Input
                      aria-label={`Original price of ${name}`}
                      inputMode="decimal"
                      value={r.originalPrice}
                      className="w-28"
                      aria-invalid={!!errorOf(r.id, "originalPrice")}
                      onChange={(e) =>
                        set(r.id, { originalPrice: sanitizePriceInput(e.target.value) })
                      }
                    />
                  </td>
                  <td className="p-2">
                    <Input
                      aria-label={`Stock of ${name}`}
                      inputMode="numeric"
                      value={r.stockCount}
                      placeholder="Not counted"
                      className="w-28"
                      aria-invalid={!!errorOf(r.id, "stockCount")}
                      onChange={(e) =>
                        set(r.id, { stockCount: e.target.value.replace(/\D/g, "").slice(0, 9) })
                      }
                    />
                  </td>
                  <td className="p-2">
                    <input
                      type="checkbox"
                      aria-label={`${name} is active`}
                      checked={r.isActive}
                      onChange={(e) => set(r.id, { isActive: e.target.checked })}
                    />
                  </td>
                  <td className="p-2">
                    <select
                      aria-label={`Image of ${name}`}
                      value={r.image}
                      className="h-9 w-40 rounded-md border bg-background px-2"
                      onChange={(e) => set(r.id, { image: e.target.value })}
                    >
                      <option value="">The product's images</option>
                      {images.map((img, k) => (
                        <option key={img.url} value={img.url}>
                          {`Image ${k + 1}`}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="p-2">
                    {r.isActive ? (
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        disabled={busy}
                        aria-label={`Deactivate ${name}`}
                        onClick={() => {
                          set(r.id, { isActive: false });
                          send([{ ...(original.get(r.id) ?? r), isActive: false }]);
                        }}
                      >
                        Deactivate
                      </Button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          disabled={busy || changedRows.length === 0}
          onClick={() => send(changedRows)}
        >
          {busy ? "Saving…" : "Save variants"}
        </Button>
        <span className="text-muted-foreground text-sm" aria-live="polite">
          {changedRows.length === 0
            ? "No unsaved changes."
            : `${changedRows.length} variant${changedRows.length === 1 ? "" : "s"} changed.`}
        </span>
      </div>
      {(serverErrors.variants ?? serverErrors.form) ? (
        <FormAlert>{serverErrors.variants ?? serverErrors.form}</FormAlert>
      ) : null}
    </div>
  );
}
