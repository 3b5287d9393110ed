import { WifiOff } from "lucide-react";
import { useSyncExternalStore } from "react";
import { subscribeWaiting, type Waiting, waitingNow } from "~/lib/offline-requests";

export const OFFLINE_SEND = "You're offline. It will be sent when you're back online.";
export const OFFLINE_PAGE = "You're offline. The page will open when you're back online.";

/**
 * Says why a form sent or a page asked for is waiting while the browser is offline
 * (app/lib/offline-requests.ts): the page stays as it was, with what was typed in it.
 */
export function OfflineNotice() {
  const waiting = useSyncExternalStore<Waiting>(subscribeWaiting, waitingNow, () => null);
  // Nothing in the server's HTML: a status that appears is announced as it appears.
  if (!waiting) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      <p
        role="status"
        data-testid="offline-notice"
        className="flex items-center gap-2 rounded-md border bg-background px-4 py-2 text-sm shadow-lg"
      >
        <WifiOff aria-hidden="true" className="size-4 shrink-0" />
        {waiting === "send" ? OFFLINE_SEND : OFFLINE_PAGE}
      </p>
    </div>
  );
}
