import { useEffect } from "react";
import { followCartAccount, refreshStoredCart } from "./cart-store";

/**
 * Keeps the browser's cart in step with the signed-in account's stored cart: merges on sign-in,
 * sends each change afterwards, takes the stored cart again on each page load and when the tab is
 * shown again, clears the local cart on sign-out. Mounted once, in the root layout; `account` is
 * any stable key of the signed-in user (null when signed out; undefined when the page doesn't
 * know, an error page: nothing is done then).
 */
export function CartSync({ account }: { account: string | null | undefined }) {
  useEffect(() => {
    if (account !== undefined) void followCartAccount(account);
  }, [account]);
  // Back to this tab, or back online: another tab or device may have changed the stored cart, a
  // merge may have failed, changes may be waiting. Follow the account again, send what is
  // unsent, then take the stored cart.
  useEffect(() => {
    if (!account) return;
    const again = () => {
      if (document.visibilityState !== "visible") return;
      void followCartAccount(account).then(() => refreshStoredCart());
    };
    document.addEventListener("visibilitychange", again);
    window.addEventListener("online", again);
    return () => {
      document.removeEventListener("visibilitychange", again);
      window.removeEventListener("online", again);
    };
  }, [account]);
  return null;
}
