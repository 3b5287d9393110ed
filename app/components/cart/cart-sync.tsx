import { useEffect } from "react";
import { followCartAccount } from "./cart-store";

/**
 * Keeps the browser's cart in step with the signed-in account's stored cart: merges on sign-in,
 * sends each change afterwards, clears the local cart on sign-out. Mounted once, in the root
 * layout; `account` is any stable key of the signed-in user (null when signed out).
 */
export function CartSync({ account }: { account: string | null }) {
  useEffect(() => {
    void followCartAccount(account);
  }, [account]);
  return null;
}
