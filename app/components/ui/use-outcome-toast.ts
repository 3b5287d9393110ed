import { useEffect, useRef } from "react";
import { type ToastOptions, toast } from "./use-toast";

/**
 * Toasts each outcome once: when the source (a fetcher, or a form's own check posing as one) is
 * idle with a result it hasn't had before, `toastFor` says what to show (nothing when it returns
 * null) and `then` does what else the outcome calls for (reset a form, focus a field, close a
 * dialog). Both see the latest render's values; neither runs twice for one result.
 */
export function useOutcomeToast<T>(
  source: { state: string; data?: T | null },
  toastFor: (outcome: NonNullable<T>) => ToastOptions | null | undefined,
  then?: (outcome: NonNullable<T>) => void,
): void {
  const seen = useRef(new WeakSet<object>());
  const handlers = useRef({ toastFor, then });
  handlers.current = { toastFor, then };
  useEffect(() => {
    const outcome = source.data;
    if (source.state !== "idle" || !outcome || typeof outcome !== "object") return;
    if (seen.current.has(outcome)) return;
    seen.current.add(outcome);
    const options = handlers.current.toastFor(outcome);
    if (options) toast(options);
    handlers.current.then?.(outcome);
  }, [source.state, source.data]);
}
