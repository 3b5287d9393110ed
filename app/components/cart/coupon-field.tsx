import { TicketPercent, X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import type { AppliedDiscount } from "~/rules/discounts.ts";
import { formatPaise } from "~/rules/money.ts";
import { appliedLabel } from "~/rules/order-discounts.ts";

/**
 * "Apply coupon" in the cart and at checkout: the code the customer typed, the server's reason
 * when it doesn't apply, and the applied code with a way to remove it.
 */
export function CouponField(props: {
  /** The code that applies now (null: none). */
  applied: string | null;
  /** Why the typed or kept code doesn't apply. */
  refusal: string | null;
  busy?: boolean;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const [text, setText] = useState("");
  const ids = { input: useId(), message: useId() };
  if (props.applied) {
    return (
      <div className="flex flex-col gap-1">
        <div className="flex items-center justify-between gap-2 rounded-md border border-dashed p-2 text-sm">
          <span className="flex items-center gap-2 font-medium" data-testid="coupon-applied">
            <TicketPercent aria-hidden="true" className="size-4" /> {props.applied}
          </span>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={props.onRemove}
            aria-label={`Remove code ${props.applied}`}
          >
            <X aria-hidden="true" /> Remove
          </Button>
        </div>
        {props.refusal && (
          <p className="text-destructive text-sm" role="alert" data-testid="coupon-message">
            {props.refusal}
          </p>
        )}
      </div>
    );
  }
  const apply = () => {
    const code = text.trim();
    if (code) props.onApply(code);
  };
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={ids.input} className="font-medium text-sm">
        Apply coupon
      </label>
      <div className="flex gap-2">
        <Input
          id={ids.input}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              apply();
            }
          }}
          placeholder="Discount code"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          aria-invalid={props.refusal ? true : undefined}
          aria-describedby={props.refusal ? ids.message : undefined}
          className="uppercase placeholder:normal-case"
        />
        <Button
          type="button"
          variant="outline"
          onClick={apply}
          disabled={props.busy || !text.trim()}
        >
          Apply
        </Button>
      </div>
      {props.refusal && (
        <p
          id={ids.message}
          className="text-destructive text-sm"
          role="alert"
          data-testid="coupon-message"
        >
          {props.refusal}
        </p>
      )}
    </div>
  );
}

/** The summary's discount lines: one per code or offer, as a negative amount. */
export function DiscountRows({ applied }: { applied: readonly AppliedDiscount[] }) {
  return applied.map((d) => (
    <div
      key={d.discountId}
      className="flex justify-between gap-2 text-emerald-700 dark:text-emerald-400"
      data-testid="summary-discount"
    >
      <dt className="min-w-0">
        {d.code ? "Coupon" : "Offer"}: {appliedLabel(d)}
      </dt>
      <dd className="shrink-0 tabular-nums">−{formatPaise(d.itemsPaise + d.shippingPaise)}</dd>
    </div>
  ));
}

/** "Add ₹120.00 more for free shipping", while the items are under the shop's threshold. */
export function FreeShippingNote({ shortfallPaise }: { shortfallPaise: number | null }) {
  if (shortfallPaise === null) return null;
  return (
    <p className="mt-3 text-muted-foreground text-xs" data-testid="free-shipping-note">
      Add {formatPaise(shortfallPaise)} more for free shipping
    </p>
  );
}
