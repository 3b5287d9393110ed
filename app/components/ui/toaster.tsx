import { lazy, Suspense, useState } from "react";
import { useToast } from "~/components/ui/use-toast";

// Radix's toasts (swipe, timers, the F8 landmark: about 6 KB gzipped) download with the first
// toast, not with every page (DESIGN.md decision 10).
const ToastRegion = lazy(() => import("./toast-region"));

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
