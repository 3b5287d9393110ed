import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldErrors } from "./account-schemas.ts";
import { addressSchema, addressText, digitsOnly } from "./address-schema.ts";

const valid = {
  label: "Home",
  name: "Asha Rao",
  line1: "12 MG Road",
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};

const errorsOf = (input: unknown) => {
  const result = addressSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe("address form", () => {
  it("accepts a complete Indian address", () => {
    expect(addressSchema.parse(valid)).toEqual(valid);
  });

  it("requires every field", () => {
    expect(Object.keys(errorsOf({})).sort()).toEqual(
      ["city", "country", "label", "line1", "name", "phone", "postalCode", "state"].sort(),
    );
    expect(errorsOf({ ...valid, city: "   " })).toHaveProperty("city");
  });

  it("labels are Home, Work or Other", () => {
    for (const label of ["Home", "Work", "Other"]) {
      expect(addressSchema.safeParse({ ...valid, label }).success).toBe(true);
    }
    expect(errorsOf({ ...valid, label: "Office" })).toHaveProperty("label");
  });

  it("phone: exactly 10 digits, with +91, 91 or 0 in front and spaces or dashes understood", () => {
    for (const phone of ["", "987654321", "98765432101", "+91 98765 43210 77", "+1 415 555 0100"]) {
      expect(errorsOf({ ...valid, phone }).phone, phone).toBe(addressText.invalidPhone);
    }
    // "+91 98765 43210" was once kept as 9198765432: a wrong number that passed the check.
    for (const phone of ["98765 43210", "+919876543210", "+91 98765 43210", "098765-43210"]) {
      expect(addressSchema.parse({ ...valid, phone }).phone, phone).toBe("9876543210");
    }
  });

  it("PIN code: 6 digits, not starting with 0", () => {
    for (const postalCode of ["", "056001", "56001", "5600011", "5600a1"]) {
      expect(errorsOf({ ...valid, postalCode }).postalCode, postalCode).toBe(
        addressText.invalidPin,
      );
    }
    expect(errorsOf({ ...valid, postalCode: "110001" })).toEqual({});
  });
});

describe("digit-only inputs", () => {
  it("strip everything but digits and stop at the limit", () => {
    expect(digitsOnly("+91 98-765 43210", 10)).toBe("9198765432");
    expect(digitsOnly("560 001", 6)).toBe("560001");
    expect(digitsOnly("abc", 6)).toBe("");
  });

  it("always give at most `max` digits, in the order typed", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 12 }), (typed, max) => {
        const out = digitsOnly(typed, max);
        expect(out).toMatch(/^\d*$/);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(typed.replace(/\D/g, "").startsWith(out)).toBe(true);
      }),
    );
  });
});
