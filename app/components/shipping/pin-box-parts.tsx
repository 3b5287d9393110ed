import { Truck } from "lucide-react";

/* The PIN box's markup, shared by its first drawing (pin-box.tsx) and its working part. */

export type PinBoxItem = {
  productId?: string;
  kind?: "custom" | "cart";
  /** The cart's total: cash on delivery is weighed against the PIN's limit with it. */
  amountPaise?: number;
  /** A custom part's ready-by day from the print queue (the quote page's project). */
  readyBy?: string;
};

export type PinBoxPanelProps = {
  id: string;
  item: PinBoxItem;
  /** What was typed before the working box loaded. */
  typed: string;
  /** A submit came before the working box loaded: check at once. */
  submitAtOnce: boolean;
  /** The plain input had the focus: keep it there. */
  focus: boolean;
};

export function PinBoxFrame({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-2 rounded-lg border p-4">
      <h2 id={`${id}-heading`} className="flex items-center gap-2 font-semibold text-base">
        <Truck aria-hidden="true" className="size-4" />
        Delivery
      </h2>
      {children}
    </div>
  );
}

export function PinInput({
  id,
  inputRef,
  value,
  onChange,
  onFocus,
  invalid,
}: {
  id: string;
  inputRef?: React.RefObject<HTMLInputElement | null>;
  value?: string;
  onChange?: (value: string) => void;
  onFocus?: () => void;
  invalid?: boolean;
}) {
  return (
    <>
      <label htmlFor={`${id}-pin`} className="sr-only">
        PIN code
      </label>
      <input
        ref={inputRef}
        id={`${id}-pin`}
        name="pin"
        inputMode="numeric"
        autoComplete="postal-code"
        placeholder="Enter PIN code"
        maxLength={6}
        value={value}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
        onFocus={onFocus}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={`${id}-answer`}
        className="h-10 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-base shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm"
      />
    </>
  );
}

export function PinButton({ busy = false }: { busy?: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="inline-flex h-10 shrink-0 items-center justify-center rounded-md border border-input bg-background px-4 font-medium text-sm shadow-xs hover:bg-accent hover:text-accent-foreground disabled:opacity-60"
    >
      {busy ? "Checking…" : "Check"}
    </button>
  );
}
