import { type ComponentType, lazy, Suspense, useState } from "react";
import { useToast } from "~/components/ui/use-toast";

// Radix's toasts (swipe, timers, the F8 landmark: about 6 KB gzipped) download with the first
// toast, not with every page (DESIGN.md decision 10).
// If its file can't be had (offline, or a tab older than the shop's last update), toasts are not
// shown rather than the page failing.
const ToastRegion = lazy(
  (): Promise<{ default: ComponentType }> =>
    import("./toast-region").catch(() => ({ default: () => null })),
);

/** Renders the toast store. Mount once, in the root layout. */
export function Toaster() {
  const { toasts } = useToast();
  // Once shown, the region stays, so a closing toast can finish and the next one comes at once.
  const [used, setUsed] = useState(false);
  if (!used && toasts.length > 0) setUsed(true);
  if (!used && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  );
}
