import type { Env } from "~/config/env.server.ts";
import { createManualCarrier, type ManualOptions } from "./manual.server.ts";
import { createShiprocketCarrier } from "./shiprocket.server.ts";
import type { ShippingCarrier } from "./types.ts";

export * from "./types.ts";

/**
 * The configured courier (SHIPPING_PROVIDER); the config parser has checked Shiprocket's
 * credentials. With none the shop runs on the manual courier, priced by its own rate table.
 */
export function createShippingCarrier(
  config: Pick<Env, "shippingProvider" | "shiprocket">,
  manual: ManualOptions,
): ShippingCarrier {
  if (config.shippingProvider === "shiprocket") {
    if (!config.shiprocket) throw new Error("Shiprocket is selected but not configured");
    return createShiprocketCarrier(config.shiprocket);
  }
  return createManualCarrier(manual);
}
