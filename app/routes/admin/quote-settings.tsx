import { ArrowLeft, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { readForm } from "~/lib/forms.server.ts";
import { getQuoteRates, saveQuoteRates } from "~/modules/quotes/quotes.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  duplicateTierText,
  type QuoteRates,
  quoteRatesSchema,
  ratesProblemText,
  typedRupeesToPaise,
} from "~/rules/quote-pricing.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/quote-settings";

/**
 * /admin/quote-settings: every rate of the instant quote — materials (density, price per gram,
 * flow rate, colours, on/off), setup fee, hourly machine rate, minimum price, wall thickness,
 * volume discounts, how long a price is held, and the printers' build volumes. Validated on the
 * server with the same schema the price is computed from; audited.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  return { rates: await getQuoteRates(db) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Quote rates",
    description: "Rates and materials for custom print quotes.",
    path: "/admin/quote-settings",
    origin: originFrom(matches),
    noindex: true,
  });
}

type SaveResult = { ok: true } | { ok: false; error: string };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readForm(request);
  let raw: unknown = null;
  try {
    raw = JSON.parse(String(form.get("rates") ?? ""));
  } catch {
    // refused below
  }
  const parsed = quoteRatesSchema.safeParse(raw);
  if (!parsed.success) {
    return data<SaveResult>({ ok: false, error: ratesProblemText(parsed.error) }, { status: 400 });
  }
  const duplicate = duplicateTierText(parsed.data.discountTiers);
  if (duplicate) return data<SaveResult>({ ok: false, error: duplicate }, { status: 400 });
  const { db } = await runtime();
  await saveQuoteRates(db, viewer, parsed.data);
  return data<SaveResult>({ ok: true });
}

/** The form's own shape: money in rupees as typed, lists as editable rows. */
type Draft = {
  setupFee: string;
  hourlyRate: string;
  minimum: string;
  wallThicknessMm: string;
  layerChangeSeconds: string;
  supportInfillPercent: string;
  slicerTolerancePercent: string;
  holdDays: string;
  expressPercent: string;
  printHoursPerDay: string;
  minLeadDays: string;
  tiers: Array<{ minQuantity: string; percent: string }>;
  printers: Array<{ name: string; x: string; y: string; z: string; count: string }>;
  materials: Array<{
    id: string;
    name: string;
    density: string;
    pricePerGram: string;
    flowRate: string;
    minWallMm: string;
    colours: string;
    enabled: boolean;
  }>;
};

const rupees = (paise: number) => String(paise / 100);

function toDraft(r: QuoteRates): Draft {
  return {
    setupFee: rupees(r.setupFeePaise),
    hourlyRate: rupees(r.hourlyRatePaise),
    minimum: rupees(r.minimumPaise),
    wallThicknessMm: String(r.wallThicknessMm),
    layerChangeSeconds: String(r.layerChangeSeconds),
    supportInfillPercent: String(r.supportInfillPercent),
    slicerTolerancePercent: String(r.slicerTolerancePercent),
    holdDays: String(r.holdDays),
    expressPercent: String(r.expressPercent),
    printHoursPerDay: String(r.printHoursPerDay),
    minLeadDays: String(r.minLeadDays),
    tiers: r.discountTiers.map((t) => ({
      minQuantity: String(t.minQuantity),
      percent: String(t.percent),
    })),
    printers: r.printers.map((p) => ({
      name: p.name,
      x: String(p.x),
      y: String(p.y),
      z: String(p.z),
      count: String(p.count),
    })),
    materials: r.materials.map((m) => ({
      id: m.id,
      name: m.name,
      density: String(m.density),
      pricePerGram: rupees(m.pricePerGramPaise),
      flowRate: String(m.flowRate),
      minWallMm: String(m.minWallMm),
      colours: m.colours.join(", "),
      enabled: m.enabled,
    })),
  };
}

const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
/** Rupees as typed ("150", "2.50", "-10") to paise; not a number: NaN, which is refused. */
const money = typedRupeesToPaise;

function fromDraft(d: Draft) {
  return {
    setupFeePaise: money(d.setupFee),
    hourlyRatePaise: money(d.hourlyRate),
    minimumPaise: money(d.minimum),
    wallThicknessMm: num(d.wallThicknessMm),
    layerChangeSeconds: num(d.layerChangeSeconds),
    supportInfillPercent: num(d.supportInfillPercent),
    slicerTolerancePercent: num(d.slicerTolerancePercent),
    holdDays: num(d.holdDays),
    expressPercent: num(d.expressPercent),
    printHoursPerDay: num(d.printHoursPerDay),
    minLeadDays: num(d.minLeadDays),
    discountTiers: d.tiers
      .map((t) => ({ minQuantity: num(t.minQuantity), percent: num(t.percent) }))
      .sort((a, b) => a.minQuantity - b.minQuantity),
    printers: d.printers.map((p) => ({
      name: p.name,
      x: num(p.x),
      y: num(p.y),
      z: num(p.z),
      count: num(p.count),
    })),
    materials: d.materials.map((m) => ({
      id: m.id,
      name: m.name,
      density: num(m.density),
      pricePerGramPaise: money(m.pricePerGram),
      flowRate: num(m.flowRate),
      minWallMm: num(m.minWallMm),
      colours: m.colours
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
      enabled: m.enabled,
    })),
  };
}

function Field({
  id,
  label,
  value,
  onChange,
  suffix,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  suffix?: string;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>
        {label}
        {suffix ? <span className="text-muted-foreground"> ({suffix})</span> : null}
      </Label>
      <Input id={id} inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button type="button" variant="ghost" size="icon" aria-label={label} onClick={onClick}>
      <Trash2 aria-hidden="true" />
    </Button>
  );
}

function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button type="button" variant="outline" className="w-fit" onClick={onClick}>
      <Plus aria-hidden="true" />
      {label}
    </Button>
  );
}

/** A text field of a form row: the draft's key, its id (after the row's prefix), label and unit. */
type FieldSpec<R> = {
  key: { [K in keyof R]: R[K] extends string ? K : never }[keyof R];
  id: string;
  label: string;
  suffix?: string;
};

/** The row's fields, in order; ids are `${prefix}-${id}` (just `id` without a prefix). */
function Fields<R>({
  prefix,
  fields,
  row,
  onChange,
}: {
  prefix?: string;
  fields: ReadonlyArray<FieldSpec<R>>;
  row: R;
  onChange: (patch: Partial<R>) => void;
}) {
  return fields.map((f) => (
    <Field
      key={String(f.key)}
      id={prefix ? `${prefix}-${f.id}` : f.id}
      label={f.label}
      suffix={f.suffix}
      value={row[f.key] as string}
      onChange={(v) => onChange({ [f.key]: v } as Partial<R>)}
    />
  ));
}

const rateFields: ReadonlyArray<FieldSpec<Draft>> = [
  { key: "setupFee", id: "setupFee", label: "Setup fee", suffix: "₹ per piece" },
  { key: "hourlyRate", id: "hourlyRate", label: "Machine rate", suffix: "₹ per hour" },
  { key: "minimum", id: "minimum", label: "Minimum price", suffix: "₹ per piece" },
  { key: "wallThicknessMm", id: "wall", label: "Wall thickness", suffix: "mm" },
  { key: "layerChangeSeconds", id: "layerChange", label: "Layer change", suffix: "seconds" },
  { key: "supportInfillPercent", id: "supportFill", label: "Support fill", suffix: "%" },
  {
    key: "slicerTolerancePercent",
    id: "slicerTolerance",
    label: "Slicer tolerance",
    suffix: "% before the slicer changes a price",
  },
  { key: "holdDays", id: "holdDays", label: "Price held for", suffix: "days" },
  { key: "expressPercent", id: "express", label: "Express surcharge", suffix: "%" },
  { key: "printHoursPerDay", id: "printHours", label: "Printing hours", suffix: "per working day" },
  { key: "minLeadDays", id: "minLead", label: "Shortest lead", suffix: "working days" },
];

type MaterialDraft = Draft["materials"][number];
const materialFields: ReadonlyArray<FieldSpec<MaterialDraft>> = [
  { key: "id", id: "id", label: "Code" },
  { key: "name", id: "name", label: "Name" },
  { key: "density", id: "density", label: "Density", suffix: "g/cm³" },
  { key: "pricePerGram", id: "price", label: "Price", suffix: "₹/g" },
  { key: "flowRate", id: "flow", label: "Flow", suffix: "mm³/s" },
  { key: "minWallMm", id: "minWall", label: "Thinnest wall", suffix: "mm" },
];
const colourField: ReadonlyArray<FieldSpec<MaterialDraft>> = [
  { key: "colours", id: "colours", label: "Colours", suffix: "comma-separated" },
];

const tierFields: ReadonlyArray<FieldSpec<Draft["tiers"][number]>> = [
  { key: "minQuantity", id: "q", label: "From pieces" },
  { key: "percent", id: "p", label: "Discount", suffix: "%" },
];

const printerFields: ReadonlyArray<FieldSpec<Draft["printers"][number]>> = [
  { key: "name", id: "name", label: "Name" },
  { key: "x", id: "x", label: "X" },
  { key: "y", id: "y", label: "Y" },
  { key: "z", id: "z", label: "Z" },
  { key: "count", id: "count", label: "How many" },
];

export default function QuoteSettings({ loaderData }: Route.ComponentProps) {
  const [draft, setDraft] = useState(() => toDraft(loaderData.rates));
  const fetcher = useFetcher<SaveResult>();
  useOutcomeToast(fetcher, (r) =>
    r.ok
      ? { title: "Rates saved", description: "New quotes use them at once." }
      : { title: "Not saved", description: r.error, variant: "destructive" },
  );

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setRow = <K extends "tiers" | "printers" | "materials">(
    key: K,
    i: number,
    patch: Partial<Draft[K][number]>,
  ) =>
    setDraft((d) => ({
      ...d,
      [key]: d[key].map((row, j) => (j === i ? { ...row, ...patch } : row)),
    }));
  const removeRow = (key: "tiers" | "printers" | "materials", i: number) =>
    setDraft((d) => ({ ...d, [key]: d[key].filter((_, j) => j !== i) }));

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    fetcher.submit({ rates: JSON.stringify(fromDraft(draft)) }, { method: "post" });
  };

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <Link to="/admin/quotes" className={buttonVariants({ variant: "ghost", size: "sm" })}>
        <ArrowLeft aria-hidden="true" />
        Quotes
      </Link>
      <h1 className="mt-4 font-bold text-3xl tracking-tight">Quote rates</h1>
      <p className="mt-1 max-w-3xl text-muted-foreground">
        Price per piece = max(minimum, setup fee + grams × price per gram + print hours × hourly
        rate), less the volume discount. Grams = (surface area × wall thickness + interior volume ×
        infill) × density.
      </p>
      <form onSubmit={save} className="mt-6 grid gap-8">
        <section className="grid gap-4 rounded-xl border bg-card p-5 sm:grid-cols-3">
          <h2 className="font-semibold sm:col-span-3">Rates</h2>
          <Fields
            fields={rateFields}
            row={draft}
            onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
          />
        </section>

        <section className="grid gap-3 rounded-xl border bg-card p-5">
          <h2 className="font-semibold">Materials</h2>
          {draft.materials.map((m, i) => (
            <fieldset
              key={i}
              className="grid gap-3 rounded-lg border p-3 sm:grid-cols-6"
              aria-label={`Material ${m.name || i + 1}`}
            >
              <Fields
                prefix={`m${i}`}
                fields={materialFields}
                row={m}
                onChange={(patch) => setRow("materials", i, patch)}
              />
              <div className="flex items-end gap-3">
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={m.enabled}
                    onChange={(e) => setRow("materials", i, { enabled: e.target.checked })}
                  />
                  Offered
                </label>
                <RemoveButton
                  label={`Remove ${m.name || "material"}`}
                  onClick={() => removeRow("materials", i)}
                />
              </div>
              <div className="sm:col-span-6">
                <Fields
                  prefix={`m${i}`}
                  fields={colourField}
                  row={m}
                  onChange={(patch) => setRow("materials", i, patch)}
                />
              </div>
            </fieldset>
          ))}
          <AddButton
            label="Add material"
            onClick={() =>
              set("materials", [
                ...draft.materials,
                {
                  id: "",
                  name: "",
                  density: "1.24",
                  pricePerGram: "3",
                  flowRate: "10",
                  minWallMm: "0.8",
                  colours: "Black",
                  enabled: true,
                },
              ])
            }
          />
        </section>

        <div className="grid gap-8 md:grid-cols-2">
          <section className="grid gap-3 rounded-xl border bg-card p-5">
            <h2 className="font-semibold">Volume discounts</h2>
            {draft.tiers.map((t, i) => (
              <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-3">
                <Fields
                  prefix={`t${i}`}
                  fields={tierFields}
                  row={t}
                  onChange={(patch) => setRow("tiers", i, patch)}
                />
                <RemoveButton label="Remove discount" onClick={() => removeRow("tiers", i)} />
              </div>
            ))}
            <AddButton
              label="Add discount"
              onClick={() => set("tiers", [...draft.tiers, { minQuantity: "", percent: "" }])}
            />
          </section>
          <section className="grid gap-3 rounded-xl border bg-card p-5">
            <h2 className="font-semibold">Printers (build volume, mm)</h2>
            <p className="text-muted-foreground text-sm">
              Each printer prints the hours per working day above. Staff choose the printer when
              they record a finished print, and each printer's times are corrected by its own
              recorded prints.
            </p>
            {draft.printers.map((p, i) => (
              <div key={i} className="grid grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] items-end gap-2">
                <Fields
                  prefix={`p${i}`}
                  fields={printerFields}
                  row={p}
                  onChange={(patch) => setRow("printers", i, patch)}
                />
                <RemoveButton
                  label={`Remove ${p.name || "printer"}`}
                  onClick={() => removeRow("printers", i)}
                />
              </div>
            ))}
            <AddButton
              label="Add printer"
              onClick={() =>
                set("printers", [...draft.printers, { name: "", x: "", y: "", z: "", count: "1" }])
              }
            />
          </section>
        </div>

        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? "Saving..." : "Save rates"}
          </Button>
        </div>
      </form>
    </div>
  );
}
