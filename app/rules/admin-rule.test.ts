import { describe, expect, it } from "vitest";
import { qualifiesAsAdmin } from "./admin-rule.ts";

const config = { adminEmails: ["owner@example.com"], adminEmailDomain: "layerkart.in" };
const verified = (email: string) => ({ email, emailVerified: true });

describe("who becomes an admin on sign-in", () => {
  it("grants a verified account on the list, in any letter case", () => {
    expect(qualifiesAsAdmin(verified("owner@example.com"), config)).toBe(true);
    expect(qualifiesAsAdmin(verified("Owner@Example.COM"), config)).toBe(true);
    expect(qualifiesAsAdmin(verified(" owner@example.com "), config)).toBe(true);
  });

  it("grants a verified account of the company domain", () => {
    expect(qualifiesAsAdmin(verified("staff@layerkart.in"), config)).toBe(true);
    expect(qualifiesAsAdmin(verified("Staff@LayerKart.IN"), config)).toBe(true);
    expect(
      qualifiesAsAdmin(verified("staff@layerkart.in"), {
        ...config,
        adminEmailDomain: "@layerkart.in",
      }),
    ).toBe(true);
  });

  it("never grants an unverified account", () => {
    expect(qualifiesAsAdmin({ email: "owner@example.com", emailVerified: false }, config)).toBe(
      false,
    );
    expect(qualifiesAsAdmin({ email: "staff@layerkart.in", emailVerified: false }, config)).toBe(
      false,
    );
  });

  it("does not grant look-alike addresses", () => {
    for (const email of [
      "staff@evil-layerkart.in",
      "staff@layerkart.in.evil.example",
      "staff@sub.layerkart.in",
      "layerkart.in@evil.example",
      "owner@example.com.evil",
      "someone@example.com",
      "@layerkart.in",
      "not-an-email",
    ]) {
      expect(qualifiesAsAdmin(verified(email), config), email).toBe(false);
    }
  });

  it("grants nobody when nothing is configured", () => {
    const none = { adminEmails: [], adminEmailDomain: "" };
    expect(qualifiesAsAdmin(verified("owner@example.com"), none)).toBe(false);
    expect(qualifiesAsAdmin(verified("x@"), none)).toBe(false);
  });
});
