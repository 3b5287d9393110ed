import { Copy, CopyCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import type { PromotionOffer } from "~/rules/promotion-offer.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";

/** The longest a browser timer may wait (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The time the promotion cards are judged at: null while the server's page is hydrating (its own
 * judgement stands), then the browser's clock, moved on when the next discount's end arrives, so
 * a page opened (or cached) before an offer ended says so once it has.
 */
export function useOfferClock(promotions: readonly LivePromotion[]): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const current = now ?? Date.now();
    if (now === null) setNow(current);
    const next = promotions
      .map((p) => (p.offer?.endsAt ? Date.parse(p.offer.endsAt) : Number.NaN))
      .filter((t) => t > current)
      .sort((a, b) => a - b)[0];
    if (next === undefined || next - current > MAX_TIMER_MS) return;
    const timer = setTimeout(() => setNow(Date.now()), next - current + 50);
    return () => clearTimeout(timer);
  }, [now, promotions]);
  return now;
}

/** The card's discount: its code with a Copy button, or "Applied automatically"; its end date. */
export function PromotionOfferLine({ offer, ended }: { offer: PromotionOffer; ended: boolean }) {
  if (ended) {
    return (
      <p className="font-medium text-muted-foreground text-sm" data-testid="offer-ended">
        This offer has ended
      </p>
    );
  }
  return (
    <div className="grid gap-1 text-sm" data-testid="promotion-offer">
      {offer.code ? (
        <CopyCode code={offer.code} />
      ) : (
        <p className="font-medium">Applied automatically at checkout</p>
      )}
      {offer.startsLabel || offer.endsLabel ? (
        <p className="text-muted-foreground text-xs">
          {[offer.startsLabel, offer.endsLabel].filter(Boolean).join(" · ")}
        </p>
      ) : null}
    </div>
  );
}

function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const codeRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      // No clipboard access (a page not served over HTTPS): select the code for the visitor.
      const el = codeRef.current;
      const selection = window.getSelection();
      if (!el || !selection) return;
      const range = document.createRange();
      range.selectNodeContents(el);
      selection.removeAllRanges();
      selection.addRange(range);
      if (document.execCommand?.("copy")) setCopied(true);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <span>Use code</span>
      <code
        ref={codeRef}
        className="rounded-md border border-primary/60 border-dashed px-2 py-0.5 font-mono font-semibold tracking-wide"
        data-testid="promotion-code"
      >
        {code}
      </code>
      <Button
        type="button"
        size="sm"
        variant="secondary"
        onClick={copy}
        aria-label={copied ? `Copied ${code}` : `Copy code ${code}`}
      >
        {copied ? <CopyCheck aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {copied ? "Copied" : "Copy"}
      </Button>
      <span role="status" className="sr-only">
        {copied ? "Copied" : ""}
      </span>
    </div>
  );
}
