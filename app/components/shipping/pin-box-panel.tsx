import { useCallback, useEffect, useRef, useState } from "react";
import { addressText, digitsOnly, PIN_DIGITS } from "~/rules/address-schema.ts";
import { deliveryLine, deliveryText, type EstimateResponse } from "~/rules/delivery.ts";
import { formatPaise } from "~/rules/money.ts";
import { PinBoxFrame, type PinBoxPanelProps, PinButton, PinInput } from "./pin-box-parts";
import { fetchEstimate, rememberedPin, rememberPin } from "./pin-store";

/*
 * The working PIN box (loaded on first use, app/components/shipping/pin-box.tsx): checks the PIN
 * as the address form does, asks GET /api/delivery-estimate, remembers a PIN the directory knows,
 * and says where and when, and whether cash on delivery is offered.
 */

type Answer =
  | { kind: "none" }
  | { kind: "busy" }
  | { kind: "message"; text: string; tone: "error" | "muted" }
  | {
      kind: "estimate";
      line: string;
      cod: boolean;
      codLimitPaise: number | null;
      shippingPaise: number | null;
    };

const PIN = /^[1-9]\d{5}$/;

export default function PinBoxPanel({ id, item, typed, submitAtOnce, focus }: PinBoxPanelProps) {
  const [pin, setPin] = useState(() => digitsOnly(typed, PIN_DIGITS) || rememberedPin() || "");
  const [answer, setAnswer] = useState<Answer>({ kind: "none" });
  const inputRef = useRef<HTMLInputElement>(null);
  const pending = useRef<AbortController | null>(null);

  const check = useCallback(
    async (value: string) => {
      pending.current?.abort();
      if (!PIN.test(value)) {
        setAnswer({ kind: "message", text: addressText.invalidPin, tone: "error" });
        return;
      }
      const controller = new AbortController();
      pending.current = controller;
      setAnswer({ kind: "busy" });
      let res: EstimateResponse;
      try {
        res = await fetchEstimate(value, item, controller.signal);
      } catch {
        if (controller.signal.aborted) return;
        setAnswer({
          kind: "message",
          text: "We couldn't check this PIN code. Please try again.",
          tone: "error",
        });
        return;
      }
      if (controller.signal.aborted) return;
      if (res.kind === "estimate") {
        rememberPin(value);
        setAnswer({
          kind: "estimate",
          line: deliveryLine(res),
          cod: res.cod,
          codLimitPaise: res.codLimitPaise,
          shippingPaise: res.shippingPaise,
        });
      } else if (res.kind === "unknown-pin") {
        // Remembered too: the cart's summary then says the same as the box, not the last PIN's rate.
        rememberPin(value);
        setAnswer({ kind: "message", text: deliveryText.unknownPin, tone: "error" });
      } else if (res.kind === "invalid" || res.kind === "busy") {
        setAnswer({ kind: "message", text: res.message, tone: "error" });
      } else {
        setAnswer({ kind: "message", text: "This item can't be estimated.", tone: "muted" });
      }
    },
    [item],
  );

  // Loaded by a submit: check what was typed. Loaded for a remembered PIN (nothing typed yet):
  // check it at once. The focus stays where it was.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on load
  useEffect(() => {
    if (submitAtOnce || (!typed && pin)) void check(pin);
    if (focus) inputRef.current?.focus();
    return () => pending.current?.abort();
  }, []);

  // The cart's total, as it is now, against the PIN's limit (a product's price was weighed by the
  // server).
  const cod =
    answer.kind === "estimate" &&
    answer.cod &&
    (item.amountPaise === undefined ||
      answer.codLimitPaise === null ||
      item.amountPaise <= answer.codLimitPaise);
  // A custom project's date moved (a part added, Express chosen): the answer shown follows it.
  const readyBy = item.readyBy;
  const shown = answer.kind === "estimate";
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the date changes
  useEffect(() => {
    if (shown) void check(pin);
  }, [readyBy]);

  return (
    <PinBoxFrame id={id}>
      <form
        className="flex gap-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void check(pin);
        }}
      >
        <PinInput
          id={id}
          inputRef={inputRef}
          value={pin}
          onChange={(v) => setPin(digitsOnly(v, PIN_DIGITS))}
          invalid={answer.kind === "message" && answer.tone === "error"}
        />
        <PinButton busy={answer.kind === "busy"} />
      </form>
      <div id={`${id}-answer`} aria-live="polite" className="text-sm" data-testid="pin-answer">
        {answer.kind === "estimate" ? (
          <p>
            <span className="font-medium">{answer.line}</span>
            {" · "}
            <span className={cod ? "text-emerald-700 dark:text-emerald-400" : ""}>
              {cod ? deliveryText.codAvailable : deliveryText.codUnavailable}
            </span>
            {answer.shippingPaise !== null && (
              <span className="block text-muted-foreground" data-testid="pin-shipping">
                {answer.shippingPaise === 0
                  ? "Free shipping"
                  : `Shipping ${formatPaise(answer.shippingPaise)}`}
              </span>
            )}
          </p>
        ) : answer.kind === "message" ? (
          <p className={answer.tone === "error" ? "text-destructive" : "text-muted-foreground"}>
            {answer.text}
          </p>
        ) : null}
      </div>
    </PinBoxFrame>
  );
}
