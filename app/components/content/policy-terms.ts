/*
 * The shop's policy windows. The specification gives two readings that disagree (SPEC §9); by
 * DESIGN decision 3 the separate policy pages (/shipping, /returns, /refund-policy, /terms) carry
 * the first and the combined /policies page carries the second. Each number lives here once.
 */

/** First reading: the separate policy pages. */
export const separatePolicyPages = {
  dispatch: "within about 10 days",
  refundOrExchange: "within 3 days of purchase",
  cancellation: "within 3 days, as long as the order has not shipped",
  refundPayout: "within 7 days",
} as const;

/** Second reading: the combined /policies page. */
export const combinedPolicyPage = {
  returns: "No returns",
  damageReport: "within 24 hours",
  cancellation: "within 12 hours",
  refund: "7-10 business days",
  replacement: "5-6 business days",
  delivery: "5-10 business days in India",
} as const;
