import { ArrowLeft, Download } from "lucide-react";
import { useRef } from "react";
import { data, Link, useFetcher } from "react-router";
import { z } from "zod";
import { AdminDate } from "~/components/admin/admin-date";
import { QuoteStatusBadge } from "~/components/quote/quote-status";
import { SliceFigures } from "~/components/quote/slice-figures";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { readForm } from "~/lib/forms.server.ts";
import {
  answerQuote,
  getQuoteForAdmin,
  getQuoteRates,
  printSchedule,
  QuoteError,
  recordPrintTime,
  repriceQuote,
  type StaffReply,
} from "~/modules/quotes/quotes.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { MAX_LINE_QUANTITY } from "~/rules/cart.ts";
import {
  formatSize,
  isLengthUnit,
  scaleSize,
  sizeInMm,
  unitForStaff,
} from "~/rules/model3d/units.ts";
import { formatPaise, rupeesToPaise } from "~/rules/money.ts";
import { correctedMinutes, minutesText, readyByText } from "~/rules/print-dates.ts";
import { describeOptions, formatBytes } from "~/rules/quote-pricing.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/quote";

/**
 * /admin/quotes/:id: one customer's model and request. Staff download the file, reply by
 * e-mail, make a payable offer (price per piece × quantity, held for the rates' hold days), or
 * close the request.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!z.uuid().safeParse(params.id).success) throw data("Quote not found", { status: 404 });
  const { db } = await runtime();
  const [quote, rates] = await Promise.all([getQuoteForAdmin(db, params.id), getQuoteRates(db)]);
  if (!quote) throw data("Quote not found", { status: 404 });
  const { factor, printers } = await printSchedule(db, new Date(), { rates });
  return {
    quote,
    factor,
    printers: printers.map((p) => ({ name: p.name, factor: p.factor })),
    materials: rates.materials.map((m) => ({ id: m.id, name: m.name })),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta({
    title: loaderData ? `Quote: ${loaderData.quote.fileName}` : "Quote",
    description: "A custom print quote.",
    path: "/admin/quotes",
    origin: originFrom(matches),
    noindex: true,
  });
}

const message = z
  .string()
  .trim()
  .min(1, "Write a message for the customer")
  .max(4000, "Please keep the message under 4000 characters");
const note = z
  .string()
  .trim()
  .min(1, "Write a note the customer will see with the new price")
  .max(1000, "Please keep the note under 1000 characters");
const rupeesPrice = z
  .string()
  .trim()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter the price per piece in rupees, e.g. 850 or 850.50")
  .refine((v) => Number(v) > 0, "The price must be more than ₹0");
const answerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("reprice"), note, newPrice: rupeesPrice }),
  z.object({
    kind: z.literal("reprice-project"),
    note,
    percent: z.coerce
      .number("Enter the change in percent, e.g. -10 or 15")
      .min(-90, "The change must be between -90% and +300%")
      .max(300, "The change must be between -90% and +300%")
      .refine((v) => v !== 0, "Enter a change other than 0%"),
  }),
  z.object({
    kind: z.literal("printed"),
    printer: z.string().trim().min(1, "Choose the printer it was printed on.").max(60),
    minutes: z.coerce
      .number("Enter the print time in minutes")
      .int("Enter whole minutes")
      .min(1, "Enter the print time in minutes")
      .max(100_000, "At most 100,000 minutes"),
  }),
  z.object({ kind: z.literal("reply"), message }),
  z.object({ kind: z.literal("close"), message }),
  z.object({
    kind: z.literal("offer"),
    message,
    unitPrice: z
      .string()
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter the price per piece in rupees, e.g. 850 or 850.50")
      .refine((v) => Number(v) > 0, "The price must be more than ₹0"),
    quantity: z.coerce
      .number("Quantity must be a number")
      .int("Quantity must be a whole number")
      .min(1, "Quantity must be at least 1")
      .max(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`),
  }),
]);

type AnswerResult = { ok: true; kind: string; parts?: number } | { ok: false; error: string };

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  if (!z.uuid().safeParse(params.id).success) throw data("Quote not found", { status: 404 });
  const parsed = answerSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) {
    const first = Object.values(fieldErrors(parsed.error)).find(Boolean) ?? "Check the form";
    return data<AnswerResult>({ ok: false, error: first }, { status: 400 });
  }
  const input = parsed.data;
  const rt = await runtime();
  try {
    if (input.kind === "reprice" || input.kind === "reprice-project") {
      const { parts } = await repriceQuote(
        { db: rt.db, jobs: rt.jobRunner, publicUrl: rt.env.publicUrl },
        viewer,
        params.id,
        input.kind === "reprice"
          ? { scope: "part", unitPricePaise: rupeesToPaise(input.newPrice), note: input.note }
          : { scope: "project", percent: input.percent, note: input.note },
      );
      return data<AnswerResult>({ ok: true, kind: input.kind, parts });
    }
    if (input.kind === "printed") {
      await recordPrintTime(rt.db, viewer, params.id, input.minutes, input.printer);
      return data<AnswerResult>({ ok: true, kind: input.kind });
    }
  } catch (error) {
    if (error instanceof QuoteError) {
      return data<AnswerResult>({ ok: false, error: error.message }, { status: error.status });
    }
    throw error;
  }
  const answer: StaffReply =
    input.kind === "offer"
      ? {
          kind: "offer",
          message: input.message,
          unitPricePaise: rupeesToPaise(input.unitPrice),
          quantity: input.quantity,
        }
      : input;
  try {
    await answerQuote(
      { db: rt.db, jobs: rt.jobRunner, publicUrl: rt.env.publicUrl },
      viewer,
      params.id,
      answer,
    );
  } catch (error) {
    if (error instanceof QuoteError) {
      return data<AnswerResult>({ ok: false, error: error.message }, { status: error.status });
    }
    throw error;
  }
  return data<AnswerResult>({ ok: true, kind: input.kind });
}

const answered = {
  reply: "Reply sent",
  offer: "Offer sent",
  close: "Request closed",
  reprice: "Price updated",
  "reprice-project": "Project re-priced",
  printed: "Print time recorded",
} as const;

function doneToast(r: { kind: string; parts?: number }, email: string) {
  return {
    title: answered[r.kind as keyof typeof answered] ?? "Saved",
    description:
      r.kind === "printed"
        ? "It leaves the print queue and tunes the print-time estimates."
        : r.kind === "reprice-project"
          ? `${r.parts} ${r.parts === 1 ? "part" : "parts"} re-priced; e-mailed to ${email}.`
          : `E-mailed to ${email}.`,
  };
}

export default function AdminQuote({ loaderData }: Route.ComponentProps) {
  const { quote, materials, factor, printers } = loaderData;
  const g = quote.geometry;
  const fetcher = useFetcher<AnswerResult>();
  const form = useRef<HTMLFormElement>(null);
  useOutcomeToast(
    fetcher,
    (r) =>
      r.ok
        ? doneToast(r, quote.customerEmail)
        : { title: "Not sent", description: r.error, variant: "destructive" },
    (r) => {
      if (r.ok) form.current?.reset();
    },
  );
  const materialName = (id: string) => materials.find((m) => m.id === id)?.name ?? id;
  const busy = fetcher.state !== "idle";
  const unit = g.fileUnit ?? quote.options?.unit ?? "file units";
  const fmt = (n: number) => n.toLocaleString("en-IN", { maximumFractionDigits: 1 });

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <Link to="/admin/quotes" className={buttonVariants({ variant: "ghost", size: "sm" })}>
        <ArrowLeft aria-hidden="true" />
        Quotes
      </Link>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <h1 className="break-all font-bold text-2xl tracking-tight">{quote.fileName}</h1>
        <QuoteStatusBadge status={quote.status} />
      </div>
      <p className="mt-1 text-muted-foreground">
        {quote.customerName} · {quote.customerEmail} · uploaded{" "}
        <AdminDate value={quote.createdAt} />
      </p>

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <section className="rounded-xl border bg-card p-5">
          <h2 className="font-semibold">Model</h2>
          <dl className="mt-3 grid grid-cols-2 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Format</dt>
            <dd className="uppercase">{g.format}</dd>
            <dt className="text-muted-foreground">File size</dt>
            <dd>{formatBytes(quote.fileBytes)}</dd>
            <dt className="text-muted-foreground">Triangles</dt>
            <dd>{g.triangles.toLocaleString("en-IN")}</dd>
            <dt className="text-muted-foreground">Units</dt>
            <dd data-testid="quote-unit">{unitForStaff(g.fileUnit, quote.options?.unit)}</dd>
            <dt className="text-muted-foreground">Size ({unit})</dt>
            <dd>
              {fmt(g.size.x)} × {fmt(g.size.y)} × {fmt(g.size.z)}
            </dd>
            <dt className="text-muted-foreground">Size as priced</dt>
            <dd data-testid="quote-size-mm">
              {formatSize(
                sizeInMm(
                  scaleSize(g.size, quote.options?.scalePercent ?? 100),
                  isLengthUnit(unit) ? unit : "mm",
                ),
              )}
            </dd>
            <dt className="text-muted-foreground">Volume ({unit}³)</dt>
            <dd>{fmt(g.volume)}</dd>
            <dt className="text-muted-foreground">Bodies</dt>
            <dd data-testid="quote-bodies">
              {g.bodyCount ?? 1}
              {g.bodies && g.bodies.length > 1 ? " (priced one by one)" : ""}
            </dd>
            <dt className="text-muted-foreground">Printability</dt>
            <dd data-testid="quote-findings">
              {quote.findings.length > 0 ? quote.findings.join("; ") : "Not checked"}
            </dd>
            <dt className="text-muted-foreground">Watertight</dt>
            <dd>{g.watertight ? "Yes" : "No"}</dd>
            <dt className="text-muted-foreground">Open edges</dt>
            <dd>{g.openEdges}</dd>
            <dt className="text-muted-foreground">Non-manifold edges</dt>
            <dd>{g.nonManifoldEdges}</dd>
            <dt className="text-muted-foreground">Normals</dt>
            <dd>{g.invertedNormals ? "Likely inverted" : "OK"}</dd>
          </dl>
          <a
            href={`/quotes/${quote.id}/model`}
            download
            className={buttonVariants({ variant: "outline", className: "mt-4" })}
          >
            <Download aria-hidden="true" />
            Download model
          </a>
        </section>

        <section className="rounded-xl border bg-card p-5">
          <h2 className="font-semibold">Request</h2>
          {quote.options ? (
            <p className="mt-3 text-sm">
              {describeOptions(quote.options, materialName(quote.options.materialId))} ·{" "}
              {quote.options.unit} · {quote.options.scalePercent}% scale · quantity{" "}
              {quote.quantity ?? quote.options.quantity}
            </p>
          ) : (
            <p className="mt-3 text-muted-foreground text-sm">No options chosen yet.</p>
          )}
          {quote.customerNote ? (
            <blockquote className="mt-3 whitespace-pre-wrap border-l-4 pl-3 text-sm">
              {quote.customerNote}
            </blockquote>
          ) : null}
          {quote.unitPricePaise !== null && quote.quantity ? (
            <p className="mt-3 text-sm">
              {quote.staffPriced ? "Offer" : "Instant price"}: {quote.quantity} ×{" "}
              {formatPaise(quote.unitPricePaise)} ={" "}
              <strong>{formatPaise(quote.unitPricePaise * quote.quantity)}</strong>
              {quote.expiresAt ? (
                <>
                  {" "}
                  · held until <AdminDate value={quote.expiresAt} />
                </>
              ) : null}
            </p>
          ) : null}
          {quote.staffReply ? (
            <div className="mt-3 rounded-md bg-muted p-3 text-sm">
              <p className="font-medium">Last reply</p>
              <p className="whitespace-pre-wrap">{quote.staffReply}</p>
            </div>
          ) : null}
        </section>
      </div>

      <PrintSection quote={quote} factor={factor} printers={printers} />

      {quote.status !== "ordered" ? (
        <section className="mt-6 rounded-xl border bg-card p-5">
          <h2 className="font-semibold">Answer the customer</h2>
          <fetcher.Form method="post" ref={form} className="mt-4 grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor="quote-message">Message</Label>
              <Textarea id="quote-message" name="message" rows={4} required maxLength={4000} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="quote-price">Price per piece (₹), for an offer</Label>
                <Input id="quote-price" name="unitPrice" inputMode="decimal" placeholder="850" />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="quote-quantity">Quantity, for an offer</Label>
                <Input
                  id="quote-quantity"
                  name="quantity"
                  type="number"
                  min={1}
                  max={MAX_LINE_QUANTITY}
                  defaultValue={quote.quantity ?? quote.options?.quantity ?? 1}
                />
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="kind" value="offer" disabled={busy}>
                Send offer
              </Button>
              <Button type="submit" name="kind" value="reply" variant="outline" disabled={busy}>
                Reply without an offer
              </Button>
              <Button type="submit" name="kind" value="close" variant="ghost" disabled={busy}>
                Close request
              </Button>
            </div>
          </fetcher.Form>
        </section>
      ) : null}
    </div>
  );
}

type AdminQuote = Route.ComponentProps["loaderData"]["quote"];

/**
 * The part's printing: its speed and date, the estimate (and as corrected by the recorded times:
 * the printer's own factor once it was printed, the shop's before), re-pricing before payment,
 * and the actual time and printer once it is printed.
 */
function PrintSection({
  quote,
  factor: shopFactor,
  printers,
}: {
  quote: AdminQuote;
  factor: number;
  printers: Array<{ name: string; factor: number }>;
}) {
  const fetcher = useFetcher<AnswerResult>();
  const form = useRef<HTMLFormElement>(null);
  useOutcomeToast(
    fetcher,
    (r) =>
      r.ok
        ? doneToast(r, quote.customerEmail)
        : { title: "Not saved", description: r.error, variant: "destructive" },
    (r) => {
      if (r.ok) form.current?.reset();
    },
  );
  const busy = fetcher.state !== "idle";
  const speed = quote.options?.speed === "express" ? "Express" : "Standard";
  const priced = quote.status === "in_cart" || quote.status === "offered";
  const factor = printers.find((p) => p.name === quote.printedOn)?.factor ?? shopFactor;
  return (
    <section className="mt-6 rounded-xl border bg-card p-5" data-testid="quote-print">
      <h2 className="font-semibold">Printing</h2>
      <dl className="mt-3 grid grid-cols-2 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Speed</dt>
        <dd data-testid="quote-speed">{speed}</dd>
        <dt className="text-muted-foreground">Ready by</dt>
        <dd data-testid="quote-ready-by">
          {quote.readyBy ? readyByText(quote.readyBy) : "Not promised yet"}
        </dd>
        <dt className="text-muted-foreground">Estimated print time</dt>
        <dd data-testid="quote-print-estimate">
          {quote.printMinutes !== null
            ? `${minutesText(quote.printMinutes)}${
                factor !== 1
                  ? ` (${minutesText(correctedMinutes(quote.printMinutes, factor))} at ×${factor.toFixed(2)} from recorded prints${quote.printedOn ? ` on ${quote.printedOn}` : ""})`
                  : ""
              }`
            : "Not priced yet"}
        </dd>
        <dt className="text-muted-foreground">Actual print time</dt>
        <dd data-testid="quote-print-actual">
          {quote.actualPrintMinutes !== null
            ? minutesText(quote.actualPrintMinutes)
            : "Not recorded"}
        </dd>
        <dt className="text-muted-foreground">Printed on</dt>
        <dd data-testid="quote-printed-on">{quote.printedOn ?? "Not recorded"}</dd>
        {quote.priceNote ? (
          <>
            <dt className="text-muted-foreground">Price note</dt>
            <dd className="whitespace-pre-wrap" data-testid="quote-price-note">
              {quote.priceNote}
            </dd>
          </>
        ) : null}
      </dl>
      <SliceFigures slice={quote.slice} />

      {priced ? (
        <fetcher.Form method="post" ref={form} className="mt-4 grid gap-4 border-t pt-4">
          <p className="text-muted-foreground text-sm">
            Re-price before payment: the customer sees the new price and your note in their cart and
            by e-mail before paying.
          </p>
          <div className="grid gap-2">
            <Label htmlFor="reprice-note">Note for the customer</Label>
            <Textarea id="reprice-note" name="note" rows={2} maxLength={1000} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="reprice-price">New price per piece (₹)</Label>
              <Input id="reprice-price" name="newPrice" inputMode="decimal" placeholder="850" />
              <Button type="submit" name="kind" value="reprice" disabled={busy}>
                Re-price this part
              </Button>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="reprice-percent">Change for every part in the cart (%)</Label>
              <Input id="reprice-percent" name="percent" inputMode="decimal" placeholder="-10" />
              <Button
                type="submit"
                name="kind"
                value="reprice-project"
                variant="outline"
                disabled={busy}
              >
                Re-price the project
              </Button>
            </div>
          </div>
        </fetcher.Form>
      ) : null}

      {quote.status === "ordered" ? (
        <fetcher.Form method="post" ref={form} className="mt-4 flex flex-wrap items-end gap-2">
          <div className="grid gap-2">
            <Label htmlFor="print-printer">Printer</Label>
            <select
              id="print-printer"
              name="printer"
              required
              defaultValue={quote.printedOn ?? (printers.length === 1 ? printers[0].name : "")}
              className="h-9 rounded-md border border-input bg-background px-3 text-sm"
            >
              <option value="" disabled>
                Choose a printer
              </option>
              {printers.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} (×{p.factor.toFixed(2)})
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="print-minutes">
              Finished: actual print time (minutes, every piece)
            </Label>
            <Input
              id="print-minutes"
              name="minutes"
              type="number"
              min={1}
              max={100000}
              defaultValue={quote.actualPrintMinutes ?? undefined}
              className="w-40"
            />
          </div>
          <Button type="submit" name="kind" value="printed" disabled={busy}>
            Record print time
          </Button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
