import { useNavigate } from "react-router";
import { cartSyncIdle } from "~/components/cart/cart-store";
import { toast } from "~/components/ui/use-toast";
import { useRootData } from "~/lib/root-data";
import { cartNotSavedText } from "~/rules/cart-sync.ts";

/**
 * 'Proceed to Checkout' (SPEC.md §2): signed in, to /checkout once every cart change has reached
 * the stored cart (checkout reads it; one that can't be sent says so and stays); otherwise 'Please sign in' and to /auth, coming back to
 * `back` afterwards. The cart's applied code goes along (checkout prices it again).
 */
export function useProceedToCheckout(back: string, coupon?: string | null): () => Promise<void> {
  const root = useRootData();
  const navigate = useNavigate();
  return async () => {
    if (!root?.viewer) {
      toast({
        title: "Please sign in",
        description: "Sign in to place your order.",
        variant: "destructive",
      });
      navigate(`/auth?redirectTo=${encodeURIComponent(back)}`);
      return;
    }
    if (!(await cartSyncIdle())) {
      toast({ ...cartNotSavedText, variant: "destructive" });
      return;
    }
    navigate(coupon ? `/checkout?coupon=${encodeURIComponent(coupon)}` : "/checkout");
  };
}
