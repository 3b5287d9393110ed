/**
 * Order totals (SPEC.md §9, DESIGN.md decision 2), in integer paise, shared by the cart summary
 * and the server's checkout: shipping is a flat fee (free at or above a threshold only when the shop
 * sets one), tax a rate of the subtotal, discount 0, total = subtotal + shipping + tax − discount.
 */
export type TotalsSettings = {
  shippingFeePaise: number;
  taxRateBasisPoints: number;
  freeShippingThresholdPaise: number | null;
};

export type OrderTotals = {
  subtotalPaise: number;
  shippingPaise: number;
  taxPaise: number;
  discountPaise: number;
  totalPaise: number;
};

export const DEFAULT_TOTALS_SETTINGS: TotalsSettings = {
  shippingFeePaise: 999,
  taxRateBasisPoints: 800,
  freeShippingThresholdPaise: null,
};

export function orderTotals(subtotalPaise: number, settings: TotalsSettings): OrderTotals {
  const subtotal = Math.max(0, Math.round(subtotalPaise));
  const freeShipping =
    settings.freeShippingThresholdPaise !== null && subtotal >= settings.freeShippingThresholdPaise;
  const shippingPaise = subtotal === 0 || freeShipping ? 0 : settings.shippingFeePaise;
  // Half a paisa rounds up.
  const taxPaise = Math.round((subtotal * settings.taxRateBasisPoints) / 10_000);
  const discountPaise = 0;
  return {
    subtotalPaise: subtotal,
    shippingPaise,
    taxPaise,
    discountPaise,
    totalPaise: subtotal + shippingPaise + taxPaise - discountPaise,
  };
}
