import { type ComponentType, useEffect, useId, useRef, useState } from "react";
import {
  PinBoxFrame,
  type PinBoxItem,
  type PinBoxPanelProps,
  PinButton,
  PinInput,
} from "./pin-box-parts";

/*
 * "Check delivery by PIN code" (issue 24) on the product page, the cart and custom printing.
 * What is drawn first is plain markup; the part that asks the server, remembers the PIN and
 * writes the answer loads on first use (a focus, a typed digit, a submit) or at once when this
 * browser already has a PIN, so the pages' first JavaScript stays within budget. Until it has
 * loaded, the plain input keeps what is typed; then the working box takes over with it.
 */

/** Whether this browser remembers a PIN (pin-store.ts keeps it; read here without loading it). */
function hasRememberedPin(): boolean {
  try {
    return /^[1-9]\d{5}$/.test(window.localStorage.getItem("lk_pin") ?? "");
  } catch {
    return false;
  }
}

let panelModule: Promise<ComponentType<PinBoxPanelProps>> | null = null;
const loadPanel = () => {
  panelModule ??= import("./pin-box-panel").then((m) => m.default);
  return panelModule;
};

export function PinBox({ item, className }: { item: PinBoxItem; className?: string }) {
  const [panel, setPanel] = useState<{
    Panel: ComponentType<PinBoxPanelProps>;
    typed: string;
    submit: boolean;
    focus: boolean;
  } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const submitted = useRef(false);
  const loading = useRef(false);
  const id = useId();

  const start = () => {
    if (loading.current) return;
    loading.current = true;
    loadPanel()
      .then((Panel) => {
        const input = inputRef.current;
        setPanel({
          Panel,
          typed: input?.value ?? "",
          submit: submitted.current,
          focus: input !== null && document.activeElement === input,
        });
      })
      .catch(() => {
        // A failed download: the next use tries again.
        loading.current = false;
        panelModule = null;
      });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    if (hasRememberedPin()) start();
  }, []);

  return (
    <section aria-labelledby={`${id}-heading`} className={className} data-testid="pin-box">
      {panel ? (
        <panel.Panel
          id={id}
          item={item}
          // As the box is at this very render, not when the download finished: a keystroke or a
          // press between the two (the panel's file was already here) isn't lost. The panel
          // reads these once, when it mounts.
          typed={inputRef.current?.value ?? panel.typed}
          submitAtOnce={submitted.current || panel.submit}
          focus={
            panel.focus ||
            (inputRef.current !== null && document.activeElement === inputRef.current)
          }
        />
      ) : (
        <PinBoxFrame id={id}>
          <form
            className="flex gap-2"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              submitted.current = true;
              start();
            }}
          >
            <PinInput id={id} inputRef={inputRef} onFocus={start} onChange={start} />
            <PinButton />
          </form>
        </PinBoxFrame>
      )}
    </section>
  );
}
