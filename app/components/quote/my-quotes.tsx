import { Download } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { cartActions } from "~/components/cart/cart-store";
import { Button, buttonVariants } from "~/components/ui/button";
import { toast } from "~/components/ui/use-toast";
import { formatPaise } from "~/rules/money.ts";
import { partDateText, printDatesText } from "~/rules/print-dates.ts";
import type { QuoteActionResult, QuoteSummary } from "~/rules/quote-pricing.ts";
import { formatBytes, quoteText } from "~/rules/quote-pricing.ts";
import { slicingText } from "~/rules/slicing.ts";
import { QuoteStatusBadge } from "./quote-status";

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString("en-IN", { day: "numeric", month: "short", year: "numeric" });

/** The customer's quotes: status, price, staff's reply, and "Add to cart" for an offer. */
export function MyQuotes({ quotes }: { quotes: QuoteSummary[] }) {
  if (quotes.length === 0) return null;
  return (
    <section id="my-quotes" className="mt-12" aria-labelledby="my-quotes-heading">
      <h2 id="my-quotes-heading" className="font-semibold text-2xl">
        Your quotes
      </h2>
      <ul className="mt-4 divide-y rounded-xl border bg-card">
        {quotes.map((q) => (
          <QuoteRow key={q.id} quote={q} />
        ))}
      </ul>
    </section>
  );
}

function QuoteRow({ quote: q }: { quote: QuoteSummary }) {
  const fetcher = useFetcher<QuoteActionResult>();
  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    if (r.ok && (r.intent === "add-to-cart" || r.intent === "accept-offer")) {
      cartActions.put(r.line);
      toast({ title: quoteText.added, description: r.line.name });
    } else if (!r.ok) {
      toast({ title: "Not added", description: r.error, variant: "destructive" });
    }
  }, [fetcher.state, fetcher.data]);
  const expired = q.expiresAt !== null && new Date(q.expiresAt) <= new Date();
  const priced = q.unitPricePaise !== null && q.quantity;
  return (
    <li className="grid gap-2 p-4" data-testid="my-quote">
      <div className="flex flex-wrap items-center gap-3">
        <span className="min-w-0 flex-1 break-all font-medium">{q.fileName}</span>
        <QuoteStatusBadge status={q.status} />
      </div>
      <p className="text-muted-foreground text-sm">
        {formatBytes(q.fileBytes)} · uploaded {dateText(q.createdAt)}
        {priced ? (
          <>
            {" "}
            · {q.quantity} × {formatPaise(q.unitPricePaise!)} ={" "}
            <span className="font-medium text-foreground">
              {formatPaise(q.unitPricePaise! * q.quantity!)}
            </span>
          </>
        ) : null}
        {q.expiresAt && (q.status === "offered" || q.status === "in_cart")
          ? expired
            ? " · expired"
            : ` · held until ${dateText(q.expiresAt)}`
          : null}
      </p>
      {q.readyBy && (q.status === "in_cart" || q.status === "ordered") ? (
        <p className="text-sm" data-testid="my-quote-date">
          {partDateText(q.options?.speed === "express" ? "express" : "standard", q.readyBy)}
        </p>
      ) : null}
      {q.priceNote && q.status !== "ordered" ? (
        <p className="text-sm" data-testid="my-quote-price-note">
          <span className="font-medium">
            {q.priceNoteBy === "slicer" ? slicingText.updatedTitle : printDatesText.repriced}:
          </span>{" "}
          {q.priceNote}
        </p>
      ) : null}
      {q.staffReply ? (
        <blockquote className="whitespace-pre-wrap rounded-md bg-muted p-3 text-sm">
          {q.staffReply}
        </blockquote>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {q.status === "offered" && !expired ? (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="accept-offer" />
            <input type="hidden" name="quoteId" value={q.id} />
            <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
              Add offer to cart
            </Button>
          </fetcher.Form>
        ) : null}
        <a
          href={`/quotes/${q.id}/model`}
          download
          className={buttonVariants({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden="true" />
          Model file
        </a>
      </div>
    </li>
  );
}
