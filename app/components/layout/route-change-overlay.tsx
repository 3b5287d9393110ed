import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { Spinner } from "~/components/ui/spinner";

export const ROUTE_OVERLAY_MS = 600;

/**
 * Every path change scrolls to the top and shows a loading overlay for 600 ms (SPEC.md §2).
 * The overlay never blocks clicks, so a fast user is not held up by it.
 */
// Module state, not a ref: the root layout remounts when an error page replaces a route, and the
// overlay must still see that the path changed.
let lastPathname: string | undefined;

export function RouteChangeOverlay() {
  const { pathname } = useLocation();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const previous = lastPathname;
    lastPathname = pathname;
    if (previous === undefined || previous === pathname) return;
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), ROUTE_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, [pathname]);

  if (!visible) return null;
  return (
    <div
      data-testid="route-overlay"
      className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-background/50 backdrop-blur-[1px] animate-[lk-fade-in_120ms_ease-out]"
    >
      <Spinner className="text-primary" iconClassName="size-8" />
    </div>
  );
}
