import { allocateProportionally } from "./gst.ts";
import { formatPaise } from "./money.ts";

/*
 * Discounts (issue #23): the one pure module that decides what a code or an automatic offer takes
 * off an order. The cart's figures, the checkout page and the order transaction all call
 * priceOrder with the server's lines, so what the customer is shown is what the server charges.
 * Money is integer paise; item discounts are shared across the eligible lines (largest remainder,
 * summing exactly) and lower each line's taxable value; shipping is discounted only by a
 * free-shipping kind.
 */

export const discountKinds = ["percent", "flat", "free_shipping", "buy_get"] as const;
export type DiscountKind = (typeof discountKinds)[number];

export const discountTargets = ["order", "categories", "products", "custom"] as const;
export type DiscountTarget = (typeof discountTargets)[number];

export const discountStates = ["active", "paused", "archived"] as const;
export type DiscountState = (typeof discountStates)[number];

/** A discount as the rules need it (the discounts table's row, or a test's literal). */
export type DiscountRule = {
  id: string;
  /** What the summary calls it ("Diwali 20% off"). */
  name: string;
  /** The code a customer types; null for an automatic offer. */
  code: string | null;
  kind: DiscountKind;
  /** percent: 2000 = 20 %. */
  percentBasisPoints: number | null;
  /** percent: at most this much off. */
  capPaise: number | null;
  /** flat: this much off. */
  amountPaise: number | null;
  /** buy_get: buy this many eligible units … */
  buyQuantity: number | null;
  /** … and the cheapest this many are free. */
  getQuantity: number | null;
  appliesTo: DiscountTarget;
  /** appliesTo categories: category or subcategory names (case-insensitive). */
  categories: string[];
  /** appliesTo products: product ids. */
  productIds: string[];
  /** The eligible items must come to at least this much (before any discount). */
  minSubtotalPaise: number | null;
  firstOrderOnly: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  /** Uses in all (null: no limit). */
  usageLimit: number | null;
  perCustomerLimit: number | null;
  usesCount: number;
  /** A code that may be used together with the best automatic offer. */
  combinesWithAutomatic: boolean;
  state: DiscountState;
};

/** A cart line as the rules see it: the server's price, never the browser's. */
export type DiscountLine = {
  productId: string;
  category: string;
  subcategory: string | null;
  /** A custom printed part (its price comes from a quote). */
  custom: boolean;
  unitPricePaise: number;
  quantity: number;
};

/** Who is ordering, as far as a discount's conditions ask. */
export type DiscountCustomer = {
  signedIn: boolean;
  /** Has an order that wasn't cancelled. */
  hasEarlierOrders: boolean;
  /** Uses of each discount by this customer still counting (not given back). */
  usesByDiscount: ReadonlyMap<string, number>;
};

export const GUEST: DiscountCustomer = {
  signedIn: false,
  hasEarlierOrders: false,
  usesByDiscount: new Map(),
};

export type DiscountStatus = "scheduled" | "live" | "paused" | "expired" | "used-up" | "archived";

/** Where a discount stands at `now`, as the admin list shows it. */
export function discountStatus(rule: DiscountRule, now: Date): DiscountStatus {
  if (rule.state === "archived") return "archived";
  if (rule.endsAt && now >= rule.endsAt) return "expired";
  if (rule.usageLimit !== null && rule.usesCount >= rule.usageLimit) return "used-up";
  if (rule.state === "paused") return "paused";
  if (rule.startsAt && now < rule.startsAt) return "scheduled";
  return "live";
}

export type RefusalCode =
  | "unknown"
  | "paused"
  | "not-started"
  | "expired"
  | "used-up"
  | "used-by-you"
  | "minimum"
  | "not-eligible"
  | "sign-in"
  | "first-order"
  | "not-combinable"
  /** The code would take nothing off this order (e.g. free shipping on an order shipped free):
   * refused, so a limited code's use isn't spent on nothing. */
  | "no-saving"
  /** Too many codes tried from one address in a minute (the cart's pricing is rate limited). */
  | "busy";

export type Refusal = { code: RefusalCode; message: string };

/** Codes are letters, digits and dashes; customers type them in any case. */
export const CODE_PATTERN = /^[A-Za-z0-9-]{3,32}$/;

export function normaliseCode(text: string): string {
  return text.trim().toUpperCase();
}

export function unknownCode(code: string): Refusal {
  return {
    code: "unknown",
    message: `“${normaliseCode(code).slice(0, 32)}” isn't a valid code. Check it and try again.`,
  };
}

const label = (rule: DiscountRule) => (rule.code ? `“${rule.code.toUpperCase()}”` : rule.name);

/** Whether each line is one the discount applies to. */
export function eligibleLines(rule: DiscountRule, lines: readonly DiscountLine[]): boolean[] {
  const categories = new Set(rule.categories.map((c) => c.trim().toLowerCase()));
  const productIds = new Set(rule.productIds);
  return lines.map((line) => {
    switch (rule.appliesTo) {
      case "order":
        return true;
      case "custom":
        return line.custom;
      case "products":
        return !line.custom && productIds.has(line.productId);
      case "categories":
        return (
          !line.custom &&
          (categories.has(line.category.trim().toLowerCase()) ||
            (line.subcategory !== null && categories.has(line.subcategory.trim().toLowerCase())))
        );
    }
    return false;
  });
}

export type DiscountValue = {
  /** Off each line, in line order (0 for lines it doesn't apply to); sums to `itemsPaise`. */
  perLine: number[];
  itemsPaise: number;
  shippingPaise: number;
};

const lineTotal = (l: DiscountLine) => l.unitPricePaise * l.quantity;

/**
 * What one discount takes off, given what each line still costs (after any discount applied
 * before it) and the shipping still charged. Never more than the eligible lines or the shipping.
 */
export function discountValue(
  rule: DiscountRule,
  lines: readonly DiscountLine[],
  remaining: readonly number[],
  shippingPaise: number,
): DiscountValue {
  const eligible = eligibleLines(rule, lines);
  const weights = remaining.map((r, i) => (eligible[i] ? Math.max(0, r) : 0));
  const base = weights.reduce((a, b) => a + b, 0);
  const none = { perLine: lines.map(() => 0), itemsPaise: 0, shippingPaise: 0 };
  switch (rule.kind) {
    case "free_shipping":
      return { ...none, shippingPaise: Math.max(0, shippingPaise) };
    case "percent":
    case "flat": {
      if (base === 0) return none;
      let amount =
        rule.kind === "percent"
          ? Math.round((base * (rule.percentBasisPoints ?? 0)) / 10_000)
          : (rule.amountPaise ?? 0);
      if (rule.kind === "percent" && rule.capPaise !== null)
        amount = Math.min(amount, rule.capPaise);
      amount = Math.max(0, Math.min(amount, base));
      return {
        perLine: allocateProportionally(amount, weights),
        itemsPaise: amount,
        shippingPaise: 0,
      };
    }
    case "buy_get": {
      const buy = rule.buyQuantity ?? 0;
      const get = rule.getQuantity ?? 0;
      if (buy < 1 || get < 1) return none;
      // Every eligible unit at what it still costs; the cheapest go free, one per full group.
      const units: Array<{ line: number; price: number }> = [];
      lines.forEach((l, i) => {
        if (!eligible[i] || l.quantity < 1) return;
        const each = Math.floor(weights[i] / l.quantity);
        const extra = weights[i] - each * l.quantity;
        for (let u = 0; u < l.quantity; u++)
          units.push({ line: i, price: each + (u < extra ? 1 : 0) });
      });
      const free = Math.floor(units.length / (buy + get)) * get;
      if (free === 0) return none;
      units.sort((a, b) => a.price - b.price || a.line - b.line);
      const perLine = lines.map(() => 0);
      for (const unit of units.slice(0, free)) perLine[unit.line] += unit.price;
      return { perLine, itemsPaise: perLine.reduce((a, b) => a + b, 0), shippingPaise: 0 };
    }
  }
  return none;
}

/**
 * Why a discount can't be used for these lines and this customer now (null: it can). A code's
 * refusals are the customer's messages; an automatic offer that is refused simply doesn't apply.
 */
export function refusal(
  rule: DiscountRule,
  lines: readonly DiscountLine[],
  customer: DiscountCustomer,
  now: Date,
): Refusal | null {
  const name = label(rule);
  // A paused code was real and may come back (its card says the offer has ended); an archived one
  // is gone.
  if (rule.state === "paused") {
    return { code: "paused", message: `${name} isn't available right now. Try another code.` };
  }
  if (rule.state !== "active") return unknownCode(rule.code ?? rule.name);
  if (rule.startsAt && now < rule.startsAt) {
    return { code: "not-started", message: `${name} isn't active yet. Try again later.` };
  }
  if (rule.endsAt && now >= rule.endsAt) {
    return { code: "expired", message: `${name} has expired.` };
  }
  if (rule.usageLimit !== null && rule.usesCount >= rule.usageLimit) {
    return { code: "used-up", message: `${name} has been fully used. Try another code.` };
  }
  if ((rule.firstOrderOnly || rule.perCustomerLimit !== null) && !customer.signedIn) {
    return { code: "sign-in", message: `Sign in to use ${name}.` };
  }
  if (rule.firstOrderOnly && customer.hasEarlierOrders) {
    return { code: "first-order", message: `${name} is for your first order only.` };
  }
  if (
    rule.perCustomerLimit !== null &&
    (customer.usesByDiscount.get(rule.id) ?? 0) >= rule.perCustomerLimit
  ) {
    return { code: "used-by-you", message: `You've already used ${name}.` };
  }
  const eligible = eligibleLines(rule, lines);
  const eligibleSubtotal = lines.reduce((s, l, i) => (eligible[i] ? s + lineTotal(l) : s), 0);
  if (rule.kind !== "free_shipping" && eligibleSubtotal === 0) {
    return { code: "not-eligible", message: `${name} doesn't apply to anything in your cart.` };
  }
  if (rule.minSubtotalPaise !== null && eligibleSubtotal < rule.minSubtotalPaise) {
    const short = rule.minSubtotalPaise - eligibleSubtotal;
    return {
      code: "minimum",
      message: `${name} needs ${formatPaise(rule.minSubtotalPaise)} of eligible items. Add ${formatPaise(short)} more to use it.`,
    };
  }
  return null;
}

export type PricingSettings = {
  shippingFeePaise: number;
  taxRateBasisPoints: number;
  freeShippingThresholdPaise: number | null;
};

/** A discount on an order, as the order stores it and every summary shows it. */
export type AppliedDiscount = {
  discountId: string;
  code: string | null;
  name: string;
  kind: DiscountKind;
  itemsPaise: number;
  shippingPaise: number;
};

export type PricedOrder = {
  subtotalPaise: number;
  /** Items and shipping discounts together. */
  discountPaise: number;
  shippingPaise: number;
  taxPaise: number;
  totalPaise: number;
  /** Each line's share of the item discounts, in line order. */
  lineDiscounts: number[];
  /** The automatic offer first (when one applies), then the code. */
  applied: AppliedDiscount[];
  /** Why the typed code doesn't apply (null when it does or none was typed). */
  codeRefusal: Refusal | null;
  /** How much more the items must come to for free shipping (null: no threshold or reached). */
  freeShippingShortfallPaise: number | null;
};

export type PriceOrderInput = {
  lines: readonly DiscountLine[];
  settings: PricingSettings;
  /** The typed code's discount: undefined when none was typed, null when no such code exists. */
  code?: { text: string; rule: DiscountRule | null };
  automatic: readonly DiscountRule[];
  customer: DiscountCustomer;
  now: Date;
};

type Step = { rule: DiscountRule; value: DiscountValue };

/**
 * An order's figures with its discounts: the best automatic offer that applies, then the code
 * (alone when it doesn't combine and is worth more than the offer; refused, with the reason, when
 * the offer is worth more). total = subtotal − item discounts + shipping − shipping discount +
 * tax on the discounted items; nothing goes below zero.
 */
export function priceOrder(input: PriceOrderInput): PricedOrder {
  const { lines, settings, customer, now } = input;
  const subtotal = lines.reduce((s, l) => s + Math.max(0, lineTotal(l)), 0);
  const gross = lines.map((l) => Math.max(0, lineTotal(l)));
  const shippingBefore = (itemsAfter: number) =>
    subtotal === 0 ||
    (settings.freeShippingThresholdPaise !== null &&
      itemsAfter >= settings.freeShippingThresholdPaise)
      ? 0
      : settings.shippingFeePaise;

  const apply = (steps: readonly DiscountRule[]): Step[] => {
    const remaining = [...gross];
    let items = subtotal;
    let shippingOff = 0;
    const out: Step[] = [];
    for (const rule of steps) {
      const value = discountValue(
        rule,
        lines,
        remaining,
        Math.max(0, shippingBefore(items) - shippingOff),
      );
      value.perLine.forEach((d, i) => {
        remaining[i] -= d;
      });
      items -= value.itemsPaise;
      shippingOff += value.shippingPaise;
      out.push({ rule, value });
    }
    return out;
  };
  function figures(steps: readonly Step[]): Omit<PricedOrder, "codeRefusal"> {
    const lineDiscounts = lines.map(() => 0);
    let itemsOff = 0;
    for (const { value } of steps) {
      value.perLine.forEach((d, i) => {
        lineDiscounts[i] += d;
      });
      itemsOff += value.itemsPaise;
    }
    const itemsAfter = subtotal - itemsOff;
    const shippingPaise = shippingBefore(itemsAfter);
    // The shipping actually charged is what free-shipping discounts can take off, in their order.
    let shippingLeft = shippingPaise;
    const shippingShares = steps.map(({ value }) => {
      const share = Math.min(value.shippingPaise, shippingLeft);
      shippingLeft -= share;
      return share;
    });
    const shippingOff = shippingPaise - shippingLeft;
    // Half a paisa rounds up, as before discounts existed.
    const taxPaise = Math.round((itemsAfter * settings.taxRateBasisPoints) / 10_000);
    const threshold = settings.freeShippingThresholdPaise;
    return {
      subtotalPaise: subtotal,
      discountPaise: itemsOff + shippingOff,
      shippingPaise,
      taxPaise,
      totalPaise: itemsAfter + shippingPaise - shippingOff + taxPaise,
      lineDiscounts,
      applied: steps
        .map(({ rule, value }, i) => ({
          discountId: rule.id,
          code: rule.code ? rule.code.toUpperCase() : null,
          name: rule.name,
          kind: rule.kind,
          itemsPaise: value.itemsPaise,
          shippingPaise: shippingShares[i],
        }))
        .filter((d) => d.itemsPaise > 0 || d.shippingPaise > 0 || d.code !== null),
      freeShippingShortfallPaise:
        threshold !== null && subtotal > 0 && itemsAfter < threshold
          ? threshold - itemsAfter
          : null,
    };
  }

  // What the customer pays with these steps: an offer that takes the items under the
  // free-shipping threshold can cost more than it saves, so offers are compared by this.
  const totalWith = (steps: readonly Step[]) => figures(steps).totalPaise;
  const undiscounted = totalWith([]);

  // The best automatic offer for this customer: the lowest total, and lower than without any
  // offer (ties: the earlier in the list).
  let best: Step | null = null;
  let bestTotal = undiscounted;
  for (const rule of input.automatic) {
    if (rule.code !== null || refusal(rule, lines, customer, now)) continue;
    const [step] = apply([rule]);
    const total = totalWith([step]);
    if (total < bestTotal) {
      best = step;
      bestTotal = total;
    }
  }

  let steps: Step[] = best ? [best] : [];
  let codeRefusal: Refusal | null = null;
  if (input.code) {
    const rule = input.code.rule;
    codeRefusal = rule ? refusal(rule, lines, customer, now) : unknownCode(input.code.text);
    if (rule && !codeRefusal) {
      if (!best) {
        steps = apply([rule]);
      } else if (rule.combinesWithAutomatic) {
        steps = apply([best.rule, rule]);
      } else {
        const alone = apply([rule]);
        if (totalWith(alone) <= bestTotal) {
          steps = alone;
        } else {
          codeRefusal = {
            code: "not-combinable",
            message: `${label(rule)} can't be combined with ${best.rule.name}, which already saves you more.`,
          };
        }
      }
    }
  }

  // A code that doesn't lower the total (free shipping on an order that already ships free, buy 2
  // get 1 with one unit, a saving that takes the items under the free-shipping threshold) is
  // refused rather than applied: applied, it would spend a use.
  const codeStep = input.code?.rule && !codeRefusal ? input.code.rule : null;
  if (codeStep) {
    const withoutCode = best ? [best] : [];
    if (totalWith(steps) >= totalWith(withoutCode)) {
      steps = best ? [best] : [];
      codeRefusal = {
        code: "no-saving",
        message: `${label(codeStep)} doesn't lower this order's total.`,
      };
    }
  }

  return { ...figures(steps), codeRefusal };
}
