import { describe, expect, it, vi } from "vitest";
import type { Serviceability, ShippingCarrier } from "~/adapters/shipping/index.server.ts";
import { createCourierRates } from "./courier-rates.server.ts";

const answer: Serviceability = {
  serviceable: true,
  recommendedId: "10",
  options: [
    {
      courierId: "10",
      courierName: "Delhivery Surface",
      paise: 8_250,
      codAvailable: true,
      days: 5,
      etd: null,
    },
  ],
};

const carrierWith = (serviceability: ShippingCarrier["serviceability"]) =>
  ({ name: "shiprocket", serviceability }) as unknown as ShippingCarrier;

const request = { pickupPin: "560001", deliveryPin: "700016", grams: 500, cod: false };

describe("createCourierRates", () => {
  it("asks the carrier once per PIN, weight and COD while the answer is fresh", async () => {
    let t = 0;
    const ask = vi.fn(async () => answer);
    const rates = createCourierRates(carrierWith(ask), { now: () => t, ttlMs: 1_000 });
    expect(await rates(request)).toEqual(answer.options);
    expect(await rates(request)).toEqual(answer.options);
    expect(ask).toHaveBeenCalledTimes(1);
    await rates({ ...request, cod: true });
    await rates({ ...request, grams: 1_000 });
    expect(ask).toHaveBeenCalledTimes(3);
    t = 1_001;
    await rates(request);
    expect(ask).toHaveBeenCalledTimes(4);
  });

  it("answers null (the rate table) when the carrier fails or is too slow, and retries later", async () => {
    let t = 0;
    const failing = vi.fn(async (): Promise<Serviceability> => {
      throw new Error("HTTP 503");
    });
    const down = createCourierRates(carrierWith(failing), { now: () => t, failureTtlMs: 100 });
    expect(await down(request)).toBeNull();
    expect(await down(request)).toBeNull();
    expect(failing).toHaveBeenCalledTimes(1);
    t = 101;
    await down(request);
    expect(failing).toHaveBeenCalledTimes(2);

    const slow = createCourierRates(
      carrierWith(() => new Promise(() => {})),
      { timeoutMs: 20 },
    );
    expect(await slow(request)).toBeNull();
  });

  it("answers no couriers where the carrier serves none, and nothing for the manual courier", async () => {
    const none = createCourierRates(
      carrierWith(async () => ({ serviceable: false, reason: "No courier" })),
    );
    expect(await none(request)).toEqual([]);
    const manual = createCourierRates({ name: "manual" } as ShippingCarrier);
    expect(await manual(request)).toBeNull();
  });
});
