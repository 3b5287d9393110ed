import { describe, expect, it } from "vitest";
import { indianMobile, MOBILE_INPUT_MAX, mobileInput } from "./phone.ts";

describe("indianMobile", () => {
  it("understands the usual ways of writing an Indian mobile number", () => {
    for (const written of [
      "9876543210",
      " 9876543210 ",
      "98765 43210",
      "98765-43210",
      "+91 98765 43210",
      "+91-98765-43210",
      "+919876543210",
      "91 98765 43210",
      "919876543210",
      "098765 43210",
      "09876543210",
      "(+91) 98765.43210",
    ]) {
      expect(indianMobile(written), written).toBe("9876543210");
    }
  });

  it("refuses anything else rather than guessing", () => {
    for (const written of [
      "",
      "98765",
      "987654321",
      "98765432101",
      "+91 98765 4321",
      "+91 98765 43210 77",
      "+1 415 555 0100",
      "+44 20 7946 0958",
      "0091 98765 43210",
      "98765abc43210",
      "++919876543210",
      "9876543210+",
    ]) {
      expect(indianMobile(written), written).toBeNull();
    }
  });
});

describe("mobileInput", () => {
  it("keeps what a number is written with and drops the rest", () => {
    expect(mobileInput("+91 98765-43210")).toBe("+91 98765-43210");
    expect(mobileInput("98765abc43210")).toBe("9876543210");
    expect(mobileInput("1".repeat(40))).toHaveLength(MOBILE_INPUT_MAX);
  });
});
