import type { Database } from "~/adapters/db/index.server.ts";
import type { Env } from "~/config/env.server.ts";
import { createPhonePeProvider } from "./phonepe.server.ts";
import { createRazorpayProvider } from "./razorpay.server.ts";
import { createSandboxProvider } from "./sandbox.server.ts";
import type { PaymentProvider } from "./types.ts";

export * from "./types.ts";

/** The configured gateway (PAYMENT_PROVIDER); the config parser has checked its credentials. */
export function createPaymentProvider(
  config: Pick<
    Env,
    | "paymentProvider"
    | "phonepe"
    | "razorpay"
    | "authSecret"
    | "publicUrl"
    | "nodeEnv"
    | "allowSandboxPayments"
  >,
  db: Database,
): PaymentProvider {
  switch (config.paymentProvider) {
    case "phonepe":
      if (!config.phonepe) throw new Error("PhonePe is selected but not configured");
      return createPhonePeProvider(config.phonepe);
    case "razorpay":
      if (!config.razorpay) throw new Error("Razorpay is selected but not configured");
      return createRazorpayProvider(config.razorpay);
    default:
      return createSandboxProvider({
        db,
        secret: config.authSecret,
        publicUrl: config.publicUrl,
        enabled: sandboxEnabled(config),
      });
  }
}

/** The TEST MODE page refuses to run in production unless explicitly allowed (DESIGN.md). */
export const sandboxEnabled = (config: Pick<Env, "nodeEnv" | "allowSandboxPayments">) =>
  config.nodeEnv !== "production" || config.allowSandboxPayments;
