import { ArrowLeft, Plus, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/use-toast";
import { readForm } from "~/lib/forms.server.ts";
import { requireAdmin } from "~/modules/accounts/guards.server.ts";
import { getQuoteRates, saveQuoteRates } from "~/modules/quotes/quotes.server.ts";
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
  holdDays: string;
  tiers: Array<{ minQuantity: string; percent: string }>;
  printers: Array<{ name: string; x: string; y: string; z: string }>;
  materials: Array<{
    id: string;
    name: string;
    density: string;
    pricePerGram: string;
    flowRate: string;
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
    holdDays: String(r.holdDays),
    tiers: r.discountTiers.map((t) => ({
      minQuantity: String(t.minQuantity),
      percent: String(t.percent),
    })),
    printers: r.printers.map((p) => ({
      name: p.name,
      x: String(p.x),
      y: String(p.y),
      z: String(p.z),
    })),
    materials: r.materials.map((m) => ({
      id: m.id,
      name: m.name,
      density: String(m.density),
      pricePerGram: rupees(m.pricePerGramPaise),
      flowRate: String(m.flowRate),
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
    holdDays: num(d.holdDays),
    discountTiers: d.tiers
      .map((t) => ({ minQuantity: num(t.minQuantity), percent: num(t.percent) }))
      .sort((a, b) => a.minQuantity - b.minQuantity),
    printers: d.printers.map((p) => ({ name: p.name, x: num(p.x), y: num(p.y), z: num(p.z) })),
    materials: d.materials.map((m) => ({
      id: m.id,
      name: m.name,
      density: num(m.density),
      pricePerGramPaise: money(m.pricePerGram),
      flowRate: num(m.flowRate),
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

export default function QuoteSettings({ loaderData }: Route.ComponentProps) {
  const [draft, setDraft] = useState(() => toDraft(loaderData.rates));
  const fetcher = useFetcher<SaveResult>();
  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    if (r.ok) toast({ title: "Rates saved", description: "New quotes use them at once." });
    else toast({ title: "Not saved", description: r.error, variant: "destructive" });
  }, [fetcher.state, fetcher.data]);

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
          <Field
            id="setupFee"
            label="Setup fee"
            suffix="₹ per piece"
            value={draft.setupFee}
            onChange={(v) => set("setupFee", v)}
          />
          <Field
            id="hourlyRate"
            label="Machine rate"
            suffix="₹ per hour"
            value={draft.hourlyRate}
            onChange={(v) => set("hourlyRate", v)}
          />
          <Field
            id="minimum"
            label="Minimum price"
            suffix="₹ per piece"
            value={draft.minimum}
            onChange={(v) => set("minimum", v)}
          />
          <Field
            id="wall"
            label="Wall thickness"
            suffix="mm"
            value={draft.wallThicknessMm}
            onChange={(v) => set("wallThicknessMm", v)}
          />
          <Field
            id="layerChange"
            label="Layer change"
            suffix="seconds"
            value={draft.layerChangeSeconds}
            onChange={(v) => set("layerChangeSeconds", v)}
          />
          <Field
            id="holdDays"
            label="Price held for"
            suffix="days"
            value={draft.holdDays}
            onChange={(v) => set("holdDays", v)}
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
              <Field
                id={`m${i}-id`}
                label="Code"
                value={m.id}
                onChange={(v) => setRow("materials", i, { id: v })}
              />
              <Field
                id={`m${i}-name`}
                label="Name"
                value={m.name}
                onChange={(v) => setRow("materials", i, { name: v })}
              />
              <Field
                id={`m${i}-density`}
                label="Density"
                suffix="g/cm³"
                value={m.density}
                onChange={(v) => setRow("materials", i, { density: v })}
              />
              <Field
                id={`m${i}-price`}
                label="Price"
                suffix="₹/g"
                value={m.pricePerGram}
                onChange={(v) => setRow("materials", i, { pricePerGram: v })}
              />
              <Field
                id={`m${i}-flow`}
                label="Flow"
                suffix="mm³/s"
                value={m.flowRate}
                onChange={(v) => setRow("materials", i, { flowRate: v })}
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
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${m.name || "material"}`}
                  onClick={() => removeRow("materials", i)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
              <div className="sm:col-span-6">
                <Field
                  id={`m${i}-colours`}
                  label="Colours"
                  suffix="comma-separated"
                  value={m.colours}
                  onChange={(v) => setRow("materials", i, { colours: v })}
                />
              </div>
            </fieldset>
          ))}
          <Button
            type="button"
            variant="outline"
            className="w-fit"
            onClick={() =>
              set("materials", [
                ...draft.materials,
                {
                  id: "",
                  name: "",
                  density: "1.24",
                  pricePerGram: "3",
                  flowRate: "10",
                  colours: "Black",
                  enabled: true,
                },
              ])
            }
          >
            <Plus aria-hidden="true" />
            Add material
          </Button>
        </section>

        <div className="grid gap-8 md:grid-cols-2">
          <section className="grid gap-3 rounded-xl border bg-card p-5">
            <h2 className="font-semibold">Volume discounts</h2>
            {draft.tiers.map((t, i) => (
              <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-3">
                <Field
                  id={`t${i}-q`}
                  label="From pieces"
                  value={t.minQuantity}
                  onChange={(v) => setRow("tiers", i, { minQuantity: v })}
                />
                <Field
                  id={`t${i}-p`}
                  label="Discount"
                  suffix="%"
                  value={t.percent}
                  onChange={(v) => setRow("tiers", i, { percent: v })}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label="Remove discount"
                  onClick={() => removeRow("tiers", i)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            ))}
            <Button
              type="button"
              variant="outline"
              className="w-fit"
              onClick={() => set("tiers", [...draft.tiers, { minQuantity: "", percent: "" }])}
            >
              <Plus aria-hidden="true" />
              Add discount
            </Button>
          </section>
          <section className="grid gap-3 rounded-xl border bg-card p-5">
            <h2 className="font-semibold">Printers (build volume, mm)</h2>
            {draft.printers.map((p, i) => (
              <div key={i} className="grid grid-cols-[2fr_1fr_1fr_1fr_auto] items-end gap-2">
                <Field
                  id={`p${i}-name`}
                  label="Name"
                  value={p.name}
                  onChange={(v) => setRow("printers", i, { name: v })}
                />
                <Field
                  id={`p${i}-x`}
                  label="X"
                  value={p.x}
                  onChange={(v) => setRow("printers", i, { x: v })}
                />
                <Field
                  id={`p${i}-y`}
                  label="Y"
                  value={p.y}
                  onChange={(v) => setRow("printers", i, { y: v })}
                />
                <Field
                  id={`p${i}-z`}
                  label="Z"
                  value={p.z}
                  onChange={(v) => setRow("printers", i, { z: v })}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${p.name || "printer"}`}
                  onClick={() => removeRow("printers", i)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            ))}
            <Button
              type="button"
              variant="outline"
              className="w-fit"
              onClick={() =>
                set("printers", [...draft.printers, { name: "", x: "", y: "", z: "" }])
              }
            >
              <Plus aria-hidden="true" />
              Add printer
            </Button>
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
