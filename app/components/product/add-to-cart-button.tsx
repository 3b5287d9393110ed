import { Loader2 } from "lucide-react";
import { useState } from "react";
import { useLocation } from "react-router";
import { cartActions, useCart } from "~/components/cart/cart-store";
import { useProceedToCheckout } from "~/components/cart/use-proceed-to-checkout";
import { Button, type ButtonProps } from "~/components/ui/button";
import { SpriteIcon } from "~/components/ui/icon-sprite";
import { toast } from "~/components/ui/use-toast";
import { lineKey } from "~/rules/cart.ts";
import { cartButtonLabel, cartButtonState, quantityLimit } from "~/rules/product-display.ts";
import type { OrderedOption } from "~/rules/stored-shapes.ts";

export type CartableProduct = {
  id: string;
  name: string;
  pricePaise: number;
  image: string | null;
  category: string;
  inStock: boolean;
  isActive: boolean;
  stockCount: number | null;
};

/**
 * 'Add to Cart' when the product can be bought; 'In Cart • Proceed to Checkout' when it can't but
 * is already in the cart; otherwise 'Unavailable' (SPEC.md §2).
 */
export function AddToCartButton({
  product,
  chosenVariant,
  quantity = 1,
  nameInLabel = false,
  ...props
}: {
  product: CartableProduct;
  /** The chosen variant of a product with options (its price and stock are in `product`). */
  chosenVariant?: { id: string; options: OrderedOption[] };
  quantity?: number;
  /** In grids, the accessible name says which product ("Add to Cart: Lotus Tealight Holder"). */
  nameInLabel?: boolean;
} & Omit<ButtonProps, "onClick">) {
  const cart = useCart();
  const proceed = useProceedToCheckout(useLocation().pathname);
  const [busy, setBusy] = useState(false);
  // A product with options: its chosen variant's line; otherwise the product's line.
  const key = lineKey({ productId: product.id, variantId: chosenVariant?.id });
  const line = cart.find((l) => lineKey(l) === key);
  const inCart = line !== undefined;
  const state = cartButtonState(product, inCart);

  const label = (text: string) => (nameInLabel ? `${text}: ${product.name}` : undefined);

  if (state === "in-cart") {
    return (
      <Button
        type="button"
        variant="secondary"
        onClick={() => void proceed()}
        aria-label={label(cartButtonLabel[state])}
        {...props}
      >
        {cartButtonLabel[state]}
      </Button>
    );
  }
  if (state === "unavailable") {
    return (
      <Button
        type="button"
        variant="outline"
        disabled
        aria-label={label(cartButtonLabel[state])}
        {...props}
      >
        {cartButtonLabel[state]}
      </Button>
    );
  }

  const add = () => {
    if (product.pricePaise <= 0) {
      toast({ title: "Price is 0", variant: "destructive" });
      return;
    }
    const inCartNow = line?.quantity ?? 0;
    const adding = Math.min(Math.max(1, quantity), quantityLimit(product) - inCartNow);
    if (adding <= 0) {
      toast({
        title: "No more available",
        description: `Your cart already holds ${inCartNow} of ${product.name}, the most you can order.`,
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    const item = {
      productId: product.id,
      ...(chosenVariant ? { variantId: chosenVariant.id, options: chosenVariant.options } : {}),
      name: product.name,
      pricePaise: product.pricePaise,
      image: product.image,
      category: product.category,
      addedAt: new Date().toISOString(),
    };
    for (let i = 0; i < adding; i++) cartActions.add(item);
    toast({
      title: "Added to cart",
      description:
        adding < quantity
          ? `${product.name}: only ${adding} more could be added, the most you can order.`
          : product.name,
    });
    // A short busy state so a double tap doesn't add twice by accident.
    setTimeout(() => setBusy(false), 300);
  };

  return (
    <Button
      type="button"
      onClick={add}
      disabled={busy}
      aria-label={busy ? undefined : label(cartButtonLabel.add)}
      {...props}
    >
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <SpriteIcon name="cart" />}
      {busy ? "Adding…" : cartButtonLabel.add}
    </Button>
  );
}
