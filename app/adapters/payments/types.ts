/*
 * One adapter per payment gateway (DESIGN.md "Shape of the code"). The shop's payments module
 * speaks only this interface; each implementation follows its gateway's published contract
 * (shared reference: payments.md). Amounts are integer paise. Nothing here touches the database.
 */

/**
 * The shop's reading of a payment: PhonePe's COMPLETED is SUCCESS. UNKNOWN is a state a genuine
 * notification named that the shop doesn't know (a refund, a state added later): it is recorded
 * and changes nothing. Only SUCCESS ever marks an order paid (issue 20).
 */
export type PaymentState = "PENDING" | "SUCCESS" | "FAILED" | "UNKNOWN";

export type PaymentProviderName = "sandbox" | "phonepe" | "razorpay";

export type InitiatePaymentInput = {
  /** Our id for this payment attempt (unique, ≤ 63 chars, [A-Za-z0-9_-]). */
  transactionId: string;
  /** The shop's order id (uuid) and number, for the gateway's reference fields. */
  orderId: string;
  orderNumber: string;
  amountPaise: number;
  customer: { name: string; email: string; phone: string | null };
  /** Where the customer's browser returns: origin + /payment-success?orderId=…&transactionId=… */
  redirectUrl: string;
  /** Where the gateway posts its server-to-server notification. */
  callbackUrl: string;
  /** How long the gateway should keep the payment page open (300–3600 s). */
  expireAfterSeconds: number;
};

export type InitiatedPayment = {
  /** The hosted payment page to send the browser to. */
  paymentUrl: string;
  /** The gateway's own id for the payment (PhonePe orderId, Razorpay payment link id). */
  providerReference: string | null;
};

export type PaymentStatus = {
  state: PaymentState;
  /** The amount the gateway reports, when it reports one. */
  amountPaise: number | null;
  errorCode: string | null;
};

export type WebhookInput = {
  headers: Headers;
  /** The body exactly as received (signatures are computed over the raw bytes). */
  rawBody: string;
};

/** A verified notification about one payment. */
export type WebhookEvent = {
  /** Stable id for deduplication (the gateway's event id, or one derived from the payload). */
  eventId: string;
  transactionId: string;
  state: PaymentState;
  amountPaise: number | null;
};

/** The request did not prove it came from the gateway: answer 401 and change nothing. */
export class WebhookAuthError extends Error {
  override name = "WebhookAuthError";
}

/** A genuine notification that carries nothing for us (another event type): answer 200. */
export type IgnoredWebhook = { ignored: true; reason: string };

/** The gateway refused or failed a call; `status` is its HTTP status when there was one. */
export class PaymentGatewayError extends Error {
  override name = "PaymentGatewayError";
  readonly status: number | null;
  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  initiate(input: InitiatePaymentInput): Promise<InitiatedPayment>;
  status(payment: {
    transactionId: string;
    providerReference: string | null;
  }): Promise<PaymentStatus>;
  /** Verifies and parses a notification; throws WebhookAuthError when it is not genuine. */
  parseWebhook(input: WebhookInput): Promise<WebhookEvent | IgnoredWebhook>;
}
