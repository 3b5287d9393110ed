import { WifiOff } from "lucide-react";
import { useSyncExternalStore } from "react";
import { subscribeWaiting, type Waiting, waitingNow } from "~/lib/offline-requests";
import { useHydrated } from "~/lib/use-hydrated";

export const OFFLINE_SEND = "You're offline. It will be sent when you're back online.";
export const OFFLINE_READ = "You're offline. We'll carry on when you're back online.";

/**
 * Says why a form sent, or something the page asked for, is waiting while the browser is
 * offline (app/lib/offline-requests.ts): the page stays as it was, with what was typed in it.
 * The live region is on the page from hydration on (nothing can wait before), empty until then,
 * so screen readers announce the text put into it; the server's HTML doesn't carry it.
 */
export function OfflineNotice() {
  const hydrated = useHydrated();
  const waiting = useSyncExternalStore<Waiting>(subscribeWaiting, waitingNow, () => null);
  if (!hydrated) return null;
  return (
    // A live region, not a `status`: pages have their own status messages, found by that role.
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
    >
      {waiting ? (
        <p
          data-testid="offline-notice"
          className="flex items-center gap-2 rounded-md border bg-background px-4 py-2 text-sm shadow-lg"
        >
          <WifiOff aria-hidden="true" className="size-4 shrink-0" />
          {waiting === "send" ? OFFLINE_SEND : OFFLINE_READ}
        </p>
      ) : null}
    </div>
  );
}
