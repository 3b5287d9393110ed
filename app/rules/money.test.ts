import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatPaise,
  paiseToRupeesText,
  rupeesTextToPaise,
  rupeesToPaise,
} from "./money.ts";

describe("money formatting", () => {
  it("formats INR with the Indian English locale and lakh grouping", () => {
    expect(formatPaise(10_000_000)).toBe("₹1,00,000.00");
    expect(formatPaise(999)).toBe("₹9.99");
    expect(formatAmount(1234567.5)).toBe("₹12,34,567.50");
  });

  it("writes whole paise as Intl's Indian English rupees do, at every size and sign", () => {
    const intl = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
    const values = [0, -0, 1, -1, 5, 99, 100, 101, 999, 1000, 99_999, 100_000, 12_345_678];
    for (let digits = 1; digits <= 17; digits++) {
      const top = 10 ** digits;
      values.push(top - 1, top, top + 1, -top, -(top - 1));
      for (let i = 0; i < 50; i++) values.push(Math.floor(Math.random() * top) * (i % 2 ? -1 : 1));
    }
    values.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    for (const paise of values) {
      expect(formatPaise(paise), String(paise)).toBe(intl.format(paise / 100));
      expect(formatPaise(paise, "inr"), String(paise)).toBe(intl.format(paise / 100));
    }
  });

  it("formats USD with the US English locale", () => {
    expect(formatAmount(100000, "USD")).toBe("$100,000.00");
  });

  it("shows non-finite amounts as zero", () => {
    expect(formatAmount(Number.NaN)).toBe("₹0.00");
    expect(formatAmount(Number.POSITIVE_INFINITY)).toBe("₹0.00");
    expect(formatPaise(Number.NaN)).toBe("₹0.00");
  });

  it("falls back to the rupee sign and two decimals for an unknown currency", () => {
    expect(formatAmount(12.5, "NOT-A-CURRENCY")).toBe("₹12.50");
  });

  it("converts rupees to integer paise without float drift", () => {
    expect(rupeesToPaise(9.99)).toBe(999);
    expect(rupeesToPaise("1.005")).toBe(101);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(rupeesToPaise("abc")).toBe(0);
  });
});

describe("paise as rupees text and back", () => {
  it("writes integer paise with exactly two decimals", () => {
    expect(paiseToRupeesText(38_691)).toBe("386.91");
    expect(paiseToRupeesText(1000)).toBe("10.00");
    expect(paiseToRupeesText(5)).toBe("0.05");
    expect(paiseToRupeesText(0)).toBe("0.00");
    expect(paiseToRupeesText(-150)).toBe("-1.50");
    expect(paiseToRupeesText(Number.NaN)).toBe("0.00");
  });

  it("reads rupees text exactly", () => {
    expect(rupeesTextToPaise("12.5")).toBe(1250);
    expect(rupeesTextToPaise("0.07")).toBe(7);
    expect(rupeesTextToPaise("1499")).toBe(149_900);
    expect(rupeesTextToPaise("19.99")).toBe(1999);
  });
});
