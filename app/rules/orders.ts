/*
 * Order rules shared by the server and the browser (SPEC.md §4, §8, §9; DESIGN.md decisions 5–6):
 * order numbers, status display, the allowed transitions, the payment-result page's constants and
 * the customer-facing texts of checkout and payment. No I/O.
 */
import { istDay } from "./india-time.ts";

export type OrderStatus =
  | "pending"
  | "processing"
  | "shipped"
  | "delivered"
  | "cancelled"
  | "refunded"
  /** The courier brought it back undelivered (RTO, issue 24). */
  | "returned";
export type PaymentStatus = "unpaid" | "paid" | "failed" | "refunded";

/** ORD-YYYYMMDD-NNNN: the date in India, NNNN random from 1000 to 9999 (SPEC.md §9). */
export function orderNumber(date: Date, random: () => number = Math.random): string {
  const ymd = istDay(date).replaceAll("-", "");
  const nnnn = 1000 + Math.floor(random() * 9000);
  return `ORD-${ymd}-${Math.min(nnnn, 9999)}`;
}

/** 'Processing', 'Shipped'… (SPEC.md §4: capitalised). */
export function statusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : "Unknown";
}

/** delivered green, shipped blue, processing yellow, cancelled red, anything else neutral. */
export type StatusTone = "green" | "blue" | "yellow" | "red" | "neutral";
export function statusTone(status: string): StatusTone {
  switch (status) {
    case "delivered":
      return "green";
    case "shipped":
      return "blue";
    case "processing":
      return "yellow";
    case "cancelled":
      return "red";
    default:
      return "neutral";
  }
}

type Tones = Record<string, StatusTone | undefined>;
const paymentTones: Tones = { paid: "green", unpaid: "yellow", failed: "red", refunded: "blue" };
const returnTones: Tones = { requested: "yellow", approved: "blue", rejected: "red" };

/** Payment states: paid green, unpaid yellow, failed red, refunded blue. */
export const paymentStatusTone = (status: string): StatusTone => paymentTones[status] ?? "neutral";

/** Return requests: requested yellow, approved blue, rejected red, refunded neutral. */
export const returnStatusTone = (status: string): StatusTone => returnTones[status] ?? "neutral";

/** The badge colours (Tailwind classes) of each tone, on the customer's and the staff's screens. */
export const STATUS_TONE_CLASSES: Record<StatusTone, string> = {
  green:
    "border-green-200 bg-green-100 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200",
  blue: "border-blue-200 bg-blue-100 text-blue-800 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200",
  yellow:
    "border-yellow-300 bg-yellow-100 text-yellow-900 dark:border-yellow-800 dark:bg-yellow-950 dark:text-yellow-200",
  red: "border-red-200 bg-red-100 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  neutral: "border-border bg-secondary text-secondary-foreground",
};

/**
 * DESIGN.md decision 5. cancelled, refunded and returned are final (a returned order's payment
 * may still be refunded). Only the courier's events return an order (decision 0016).
 */
const orderTransitions: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["processing", "cancelled"],
  processing: ["shipped", "cancelled", "returned"],
  shipped: ["delivered", "returned"],
  delivered: ["refunded"],
  cancelled: [],
  refunded: [],
  returned: [],
};

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return orderTransitions[from].includes(to);
}

/** unpaid → paid | failed; failed → paid (a late success); paid → refunded. Paid never goes back. */
const paymentTransitions: Record<PaymentStatus, readonly PaymentStatus[]> = {
  unpaid: ["paid", "failed"],
  failed: ["paid"],
  paid: ["refunded"],
  refunded: [],
};

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return paymentTransitions[from].includes(to);
}

export const SHIPPING_METHOD = { id: "standard", label: "Standard Shipping" } as const;

export type PaymentMethod = "phonepe" | "cod" | "card";

export const paymentMethodLabel = (method: string, provider?: string): string => {
  if (method === "cod") return "Cash on Delivery";
  if (method === "card") return "Card";
  if (provider === "razorpay" || method === "razorpay") return "Razorpay";
  if (provider === "sandbox" || method === "sandbox") return "PhonePe (test mode)";
  return "PhonePe";
};

/** The payment-result page (SPEC.md §9). */
export const PAYMENT_POLL = {
  intervalMs: 5000,
  maxTries: 24,
  redirectAfterFinalMs: 2000,
  redirectWithoutOrderMs: 2500,
} as const;

/** How long the gateway keeps a payment open (PhonePe's expireAfter; Razorpay needs 16 min+). */
export const PAYMENT_WINDOW_SECONDS = 20 * 60;

/**
 * An unpaid order is cancelled (stock released) this long after its payment started: the
 * gateway's window plus a grace period for late notifications.
 */
export const ORDER_HOLD_SECONDS = PAYMENT_WINDOW_SECONDS + 5 * 60;

/** A payment the gateway still calls PENDING this long after the hold ends is given up on. */
export const PENDING_GIVE_UP_SECONDS = 60 * 60;

/** An open order is offered again only while this much of its hold is left. */
export const REUSE_MARGIN_SECONDS = 5 * 60;

/**
 * When to ask the gateway about a pending payment, in seconds after it started (PhonePe's
 * reconciliation schedule, payments.md): 20–25 s, then every 3 s for 30 s, 6 s for 60 s, 10 s for
 * 60 s, 30 s for 60 s, then every minute until 20 minutes. Returns null when the window is over.
 */
export function nextReconcileDelay(elapsedSeconds: number): number | null {
  const e = Math.max(0, elapsedSeconds);
  const steps: Array<[until: number, every: number]> = [
    [55, 3],
    [115, 6],
    [175, 10],
    [235, 30],
    [PAYMENT_WINDOW_SECONDS, 60],
  ];
  if (e < 25) return 25 - e;
  for (const [until, every] of steps) {
    if (e < until) return every;
  }
  return null;
}

/** Texts customers see (SPEC.md §5, §8), verbatim. */
export const checkoutText = {
  signIn: "Please sign in",
  cartEmpty: "Cart is empty",
  noAddressSelected: "No address selected",
  noAddressSelectedDescription: "Please add or select a shipping address.",
  addressNotAvailable: "Address not available",
  failedToLoadAddresses: "Failed to load addresses",
  failedToLoadAddressesDescription: "Please try again or add a new address.",
  noAddresses: "No addresses found",
  noAddressesDescription: "Please add a delivery address to proceed.",
  paymentFailed: "Payment failed",
  paymentFailedDescription: "Failed to initiate payment. Please try again.",
  failedToPlaceOrder: "Failed to place order",
  failedToPlaceOrderDescription: "Please try again.",
  redirecting: "Redirecting to Payment...",
  placing: "Placing...",
  paymentInitiationFailed: "Payment initiation failed",
  failedToCheckStatus: "Failed to check payment status",
  /** Shown before a cash on delivery order replaces orders still waiting for an online payment. */
  openPaymentReplaced: (orderNumbers: readonly string[]) =>
    `${orderNumbers.length === 1 ? `Order ${orderNumbers[0]} is` : `Orders ${orderNumbers.join(", ")} are`} still waiting for an online payment. Placing this order cancels ${orderNumbers.length === 1 ? "it" : "them"}, and a payment that still goes through is refunded in full.`,
} as const;

export const paymentResultText = {
  unavailable: "Payment Result Unavailable",
  verificationFailed: "Payment Verification Failed",
  verificationFailedDescription: "Unable to verify payment status.",
  invalidResponse: "Invalid Payment Response",
  invalidResponseDescription:
    "No transaction ID found. Please check your order status in your account.",
  verificationError: "Payment Verification Error",
  verificationErrorDescription: "An error occurred while verifying your payment.",
  failed: "Payment Failed",
  failedDescription: "Your payment could not be processed. Please try again.",
  stillProcessing: "Still Processing",
  stillProcessingDescription:
    "Your payment is still pending. We will update your order once completed.",
  success: "Payment Successful!",
} as const;
