import { describe, expect, it } from "vitest";
import { fieldErrors } from "./account-schemas.ts";
import { gstStateCode } from "./gst.ts";
import {
  basisPointsToPercentText,
  INDIAN_STATES,
  INDIAN_UNION_TERRITORIES,
  isGstin,
  paiseToRupeesText,
  type SettingsForm,
  settingsSchema,
  settingsText,
  settingsToForm,
} from "./settings-schema.ts";

const valid: SettingsForm = {
  shippingFee: "9.99",
  taxRate: "8",
  freeShippingThreshold: "",
  codEnabled: undefined,
  codMaxOrder: "",
  shopName: "LayerKart",
  shopAddress: "14, 3rd Cross, Koramangala, Bengaluru 560095",
  shopPhone: "+91 80 4567 8910",
  shopEmail: "hello@layerkart.example",
  gstin: "29ABCDE1234F1Z5",
  shopState: "Karnataka",
  shipFromPin: "560095",
  dispatchDays: "1",
  printLeadDays: "3",
  printLeadDaysByCategory: "",
  transitLocal: "1",
  transitState: "2",
  transitMetro: "3",
  transitRest: "5",
  transitSpecial: "7",
  rateLocalFirst: "40",
  rateLocalAdditional: "30",
  rateStateFirst: "50",
  rateStateAdditional: "40",
  rateMetroFirst: "65",
  rateMetroAdditional: "55",
  rateRestFirst: "80",
  rateRestAdditional: "70",
  rateSpecialFirst: "120",
  rateSpecialAdditional: "100",
  codFeeLocal: "0",
  codFeeState: "0",
  codFeeMetro: "0",
  codFeeRest: "0",
  codFeeSpecial: "0",
  codLimitLocal: "",
  codLimitState: "",
  codLimitMetro: "",
  codLimitRest: "",
  codLimitSpecial: "",
  holidays: "",
};

const errorsOf = (input: Partial<SettingsForm>) => {
  const parsed = settingsSchema.safeParse({ ...valid, ...input });
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe("settings schema", () => {
  it("turns rupees and percent into paise and basis points", () => {
    expect(settingsSchema.parse(valid)).toEqual({
      courierRates: "table",
      preferredCourier: "",
      shippingFeePaise: 999,
      taxRateBasisPoints: 800,
      freeShippingThresholdPaise: null,
      codEnabled: false,
      codMaxOrderPaise: null,
      shopName: "LayerKart",
      shopAddress: "14, 3rd Cross, Koramangala, Bengaluru 560095",
      shopPhone: "+91 80 4567 8910",
      shopEmail: "hello@layerkart.example",
      gstin: "29ABCDE1234F1Z5",
      shopState: "Karnataka",
      shipFromPin: "560095",
      dispatchDays: 1,
      printLeadDays: 3,
      printLeadDaysByCategory: {},
      transitDays: { local: 1, state: 2, metro: 3, rest: 5, special: 7 },
      holidays: [],
      shippingRates: {
        local: { firstPaise: 4_000, additionalPaise: 3_000, codFeePaise: 0, codLimitPaise: null },
        state: { firstPaise: 5_000, additionalPaise: 4_000, codFeePaise: 0, codLimitPaise: null },
        metro: { firstPaise: 6_500, additionalPaise: 5_500, codFeePaise: 0, codLimitPaise: null },
        rest: { firstPaise: 8_000, additionalPaise: 7_000, codFeePaise: 0, codLimitPaise: null },
        special: {
          firstPaise: 12_000,
          additionalPaise: 10_000,
          codFeePaise: 0,
          codLimitPaise: null,
        },
      },
    });
    const more = settingsSchema.parse({
      ...valid,
      shippingFee: "₹1,250.5",
      taxRate: "18.25%",
      freeShippingThreshold: "999",
      codEnabled: "on",
      codMaxOrder: "5000.00",
    });
    expect(more).toMatchObject({
      shippingFeePaise: 125_050,
      taxRateBasisPoints: 1825,
      freeShippingThresholdPaise: 99_900,
      codEnabled: true,
      codMaxOrderPaise: 500_000,
    });
  });

  it("reads the delivery settings: ship-from PIN, working days, lead times by category, holidays", () => {
    const parsed = settingsSchema.parse({
      ...valid,
      dispatchDays: " 0 ",
      printLeadDays: "60",
      printLeadDaysByCategory: "3D Characters: 5\r\n\n  3D Prints = 2  \n3D Characters: 6",
      holidays: "2026-12-25\n2026-01-26, 2026-12-25\n",
      transitSpecial: "10",
    });
    expect(parsed).toMatchObject({
      dispatchDays: 0,
      printLeadDays: 60,
      printLeadDaysByCategory: { "3D Characters": 6, "3D Prints": 2 },
      holidays: ["2026-01-26", "2026-12-25"],
      transitDays: { local: 1, state: 2, metro: 3, rest: 5, special: 10 },
    });
    expect(errorsOf({ transitMetro: "61" }).transitMetro).toBe(settingsText.workingDays);
    for (const days of ["", "-1", "61", "1.5", "abc"]) {
      expect(errorsOf({ dispatchDays: days }).dispatchDays, days).toBe(settingsText.workingDays);
    }
    for (const pin of ["", "012345", "56009", "5600951"]) {
      expect(errorsOf({ shipFromPin: pin }).shipFromPin, pin).toBe(settingsText.shipFromPin);
    }
    expect(errorsOf({ printLeadDaysByCategory: "Characters five" }).printLeadDaysByCategory).toBe(
      settingsText.leadByCategory,
    );
    expect(errorsOf({ printLeadDaysByCategory: "Characters: 99" }).printLeadDaysByCategory).toBe(
      settingsText.leadByCategory,
    );
    for (const day of ["2026-02-30", "25/12/2026", "2026-13-01"]) {
      expect(errorsOf({ holidays: day }).holidays, day).toBe(settingsText.holidays);
    }
    // The form shows what it stored, and reading it back gives the same settings.
    const form = settingsToForm(parsed);
    expect(settingsSchema.parse(form)).toEqual(parsed);
  });

  it("reads the rate table per zone in rupees, and refuses what isn't an amount", () => {
    const parsed = settingsSchema.parse({
      ...valid,
      rateLocalFirst: "₹45.50",
      rateSpecialAdditional: "0",
    });
    expect(parsed.shippingRates.local.firstPaise).toBe(4_550);
    expect(parsed.shippingRates.special.additionalPaise).toBe(0);
    for (const rate of ["", "-40", "40.555", "forty", "100001"]) {
      expect(errorsOf({ rateMetroFirst: rate }).rateMetroFirst, rate).toBe(
        rate === "100001" ? settingsText.tooLarge : settingsText.rate,
      );
    }
    expect(settingsSchema.parse(settingsToForm(parsed))).toEqual(parsed);
  });

  it("reads cash on delivery per zone: a fee in rupees, a limit (empty: none, 0: off)", () => {
    const parsed = settingsSchema.parse({
      ...valid,
      codFeeLocal: "₹49",
      codLimitLocal: "5,000",
      codFeeSpecial: "0",
      codLimitSpecial: "0",
      codLimitRest: " ",
    });
    expect(parsed.shippingRates.local).toMatchObject({
      codFeePaise: 4_900,
      codLimitPaise: 500_000,
    });
    expect(parsed.shippingRates.special).toMatchObject({ codFeePaise: 0, codLimitPaise: 0 });
    expect(parsed.shippingRates.rest.codLimitPaise).toBeNull();
    for (const fee of ["", "-1", "49.999", "forty-nine", "10000.01"]) {
      expect(errorsOf({ codFeeMetro: fee }).codFeeMetro, fee).toBe(settingsText.codFee);
    }
    expect(errorsOf({ codFeeMetro: "10000" }).codFeeMetro).toBeUndefined();
    for (const limit of ["-1", "5000.001", "five"]) {
      expect(errorsOf({ codLimitState: limit }).codLimitState, limit).toBe(settingsText.codLimit);
    }
    expect(errorsOf({ codLimitState: "10000001" }).codLimitState).toBe(settingsText.tooLarge);
    expect(settingsSchema.parse(settingsToForm(parsed))).toEqual(parsed);
  });

  it("reads the courier rates setting: the table by default, a preferred courier needs a name", () => {
    expect(
      settingsSchema.parse({
        ...valid,
        courierRates: "cheapest",
        preferredCourier: "  Blue  Dart ",
      }),
    ).toMatchObject({ courierRates: "cheapest", preferredCourier: "Blue Dart" });
    expect(settingsSchema.safeParse({ ...valid, courierRates: "dearest" }).success).toBe(false);
    const unnamed = settingsSchema.safeParse({ ...valid, courierRates: "preferred" });
    expect(unnamed.error?.issues[0]).toMatchObject({
      path: ["preferredCourier"],
      message: settingsText.preferredCourier,
    });
    expect(
      settingsSchema.parse({ ...valid, courierRates: "preferred", preferredCourier: "Delhivery" }),
    ).toMatchObject({ courierRates: "preferred", preferredCourier: "Delhivery" });
  });

  it("is exact where floating point is not (0.29, 19.99, 4.35)", () => {
    expect(settingsSchema.parse({ ...valid, shippingFee: "0.29" }).shippingFeePaise).toBe(29);
    expect(settingsSchema.parse({ ...valid, shippingFee: "19.99" }).shippingFeePaise).toBe(1999);
    expect(settingsSchema.parse({ ...valid, taxRate: "4.35" }).taxRateBasisPoints).toBe(435);
    expect(settingsSchema.parse({ ...valid, shippingFee: "0" }).shippingFeePaise).toBe(0);
  });

  it("refuses bad shipping fees", () => {
    for (const fee of ["", "-1", "9.999", "abc", "1e3", "9.", ".5"]) {
      expect(errorsOf({ shippingFee: fee }).shippingFee, fee).toBe(settingsText.shippingFee);
    }
    expect(errorsOf({ shippingFee: "100001" }).shippingFee).toBe(settingsText.tooLarge);
    expect(errorsOf({ shippingFee: undefined as never }).shippingFee).toBe(
      settingsText.shippingFee,
    );
  });

  it("keeps the tax rate within 0–100 with at most 2 decimals", () => {
    expect(settingsSchema.parse({ ...valid, taxRate: "0" }).taxRateBasisPoints).toBe(0);
    expect(settingsSchema.parse({ ...valid, taxRate: "100" }).taxRateBasisPoints).toBe(10_000);
    for (const rate of ["100.01", "-5", "8.125", "", "eight"]) {
      expect(errorsOf({ taxRate: rate }).taxRate, rate).toBe(settingsText.taxRate);
    }
  });

  it("treats an empty threshold or COD maximum as none, and zero as a mistake", () => {
    expect(errorsOf({ freeShippingThreshold: "0" }).freeShippingThreshold).toBe(
      settingsText.positive,
    );
    expect(errorsOf({ codMaxOrder: "0.00" }).codMaxOrder).toBe(settingsText.positive);
    expect(errorsOf({ codMaxOrder: "12.345" }).codMaxOrder).toBe(settingsText.amount);
    expect(settingsSchema.parse({ ...valid, codMaxOrder: "  " }).codMaxOrderPaise).toBeNull();
  });

  it("needs a shop name, a real state and a well-formed e-mail and phone when given", () => {
    expect(errorsOf({ shopName: "   " }).shopName).toBe(settingsText.shopName);
    expect(errorsOf({ shopState: "Atlantis" }).shopState).toBe(settingsText.state);
    expect(errorsOf({ shopState: "" }).shopState).toBe(settingsText.state);
    expect(errorsOf({ shopEmail: "not-an-email" }).shopEmail).toBe(settingsText.shopEmail);
    expect(errorsOf({ shopPhone: "call us" }).shopPhone).toBe(settingsText.shopPhone);
    expect(errorsOf({ shopPhone: "12345" }).shopPhone).toBe(settingsText.shopPhone);
    expect(errorsOf({ shopEmail: "", shopPhone: "", shopAddress: "", gstin: "" })).toEqual({});
  });

  it("checks the GSTIN's shape: state code, PAN, entity number, Z, check character", () => {
    expect(isGstin("29ABCDE1234F1Z5")).toBe(true);
    expect(isGstin("27AAPFU0939F1ZV")).toBe(true);
    expect(isGstin("29abcde1234f1z5")).toBe(true); // typed in lower case
    expect(isGstin("29ABCDE1234F1Z")).toBe(false); // 14 characters
    expect(isGstin("29ABCDE1234F1Z55")).toBe(false); // 16
    expect(isGstin("29ABCD11234F1Z5")).toBe(false); // PAN letters
    expect(isGstin("29ABCDE12A4F1Z5")).toBe(false); // PAN digits
    expect(isGstin("29ABCDE1234F0Z5")).toBe(false); // entity number 0
    expect(isGstin("29ABCDE1234F1X5")).toBe(false); // no Z
    expect(isGstin("00ABCDE1234F1Z5")).toBe(false); // no state 00
    expect(isGstin("45ABCDE1234F1Z5")).toBe(false); // no state 45
    expect(settingsSchema.parse({ ...valid, gstin: " 29abcde 1234f1z5 " }).gstin).toBe(
      "29ABCDE1234F1Z5",
    );
    expect(errorsOf({ gstin: "29ABCDE1234F1X5" }).gstin).toBe(settingsText.gstin);
  });

  it("wants the GSTIN's state code to be the shop state's", () => {
    const errors = errorsOf({ gstin: "29ABCDE1234F1Z5", shopState: "Goa" });
    expect(errors.gstin).toMatch(/state code 29; Goa is 30/);
    expect(errorsOf({ gstin: "30ABCDE1234F1Z5", shopState: "Goa" })).toEqual({});
  });

  it("lists every state and union territory, each with a GST state code", () => {
    expect(INDIAN_STATES).toHaveLength(28);
    expect(INDIAN_UNION_TERRITORIES).toHaveLength(8);
    for (const state of [...INDIAN_STATES, ...INDIAN_UNION_TERRITORIES]) {
      expect(gstStateCode(state), state).toMatch(/^\d{2}$/);
    }
  });

  it("round-trips the stored settings through the form", () => {
    const stored = settingsSchema.parse({
      ...valid,
      shippingFee: "10",
      taxRate: "18.5",
      freeShippingThreshold: "1499.5",
      codEnabled: "on",
    });
    const form = settingsToForm(stored);
    expect(form).toMatchObject({
      shippingFee: "10.00",
      taxRate: "18.5",
      freeShippingThreshold: "1499.50",
      codEnabled: "on",
      codMaxOrder: "",
    });
    expect(settingsSchema.parse(form)).toEqual(stored);
    expect(paiseToRupeesText(5)).toBe("0.05");
    expect(basisPointsToPercentText(1825)).toBe("18.25");
    expect(basisPointsToPercentText(5)).toBe("0.05");
  });
});
