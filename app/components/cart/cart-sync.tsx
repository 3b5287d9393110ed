import { useEffect } from "react";
import { followCartAccount, refreshStoredCart, retryCartSync } from "./cart-store";

/**
 * Keeps the browser's cart in step with the signed-in account's stored cart: merges on sign-in,
 * sends each change afterwards, takes the stored cart again on each page load and when the tab is
 * shown again, clears the local cart on sign-out. Mounted once, in the root
 * layout; `account` is any stable key of the signed-in user (null when signed out).
 */
export function CartSync({ account }: { account: string | null }) {
  useEffect(() => {
    void followCartAccount(account);
  }, [account]);
  // Back to this tab: another tab or device may have changed the stored cart meanwhile.
  useEffect(() => {
    if (!account) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") void refreshStoredCart();
    };
    document.addEventListener("visibilitychange", onVisible);
    // Back online: the changes a failed request left queued are sent.
    window.addEventListener("online", retryCartSync);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", retryCartSync);
    };
  }, [account]);
  return null;
}
