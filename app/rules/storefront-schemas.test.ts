import { describe, expect, it } from "vitest";
import { promotionInterestSchema } from "./storefront-schemas.ts";

const base = { promotionId: "6f1c2f3e-8d5b-4a4e-9c1a-2b3c4d5e6f70", name: "Asha" };

describe("promotion interest", () => {
  it("keeps an Indian mobile number as its 10 digits, however it was written", () => {
    for (const phone of ["9876543210", "+91 98765 43210", "91 98765-43210", "098765 43210"]) {
      expect(promotionInterestSchema.parse({ ...base, phone }).phone, phone).toBe("9876543210");
    }
    expect(promotionInterestSchema.parse({ ...base, phone: "  " }).phone).toBeUndefined();
  });

  it("refuses any other phone with the address form's message", () => {
    for (const phone of ["98765", "+1 415 555 0100", "+91 98765 43210 77"]) {
      const result = promotionInterestSchema.safeParse({ ...base, phone });
      expect(result.success, phone).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("Please enter a valid 10-digit mobile number");
    }
  });
});
