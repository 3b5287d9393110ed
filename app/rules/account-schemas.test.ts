import { describe, expect, it } from "vitest";
import {
  ACCOUNT_NAME_MAX,
  accountText,
  displayName,
  fieldErrors,
  formFields,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
  safeRedirect,
} from "./account-schemas.ts";

const registration = {
  firstName: " Asha ",
  lastName: "Rao",
  email: " asha@example.com ",
  password: "a-good-password",
  confirmPassword: "a-good-password",
};

describe("registration", () => {
  it("accepts the five fields and trims names and e-mail", () => {
    const parsed = registerSchema.parse(registration);
    expect(parsed).toMatchObject({ firstName: "Asha", email: "asha@example.com" });
    expect(displayName(parsed)).toBe("Asha Rao");
  });

  it("requires every field", () => {
    const result = registerSchema.safeParse({});
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.keys(fieldErrors(result.error)).sort()).toEqual(
      ["confirmPassword", "email", "firstName", "lastName", "password"].sort(),
    );
    const blank = registerSchema.safeParse({ ...registration, firstName: "   " });
    expect(blank.success).toBe(false);
  });

  it("says 'Passwords do not match' when they differ", () => {
    const result = registerSchema.safeParse({ ...registration, confirmPassword: "another-one" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error).confirmPassword).toBe(accountText.passwordsDoNotMatch);
  });

  it("checks the e-mail and the password length", () => {
    const bad = registerSchema.safeParse({ ...registration, email: "asha" });
    expect(bad.success).toBe(false);
    const short = registerSchema.safeParse({
      ...registration,
      password: "short",
      confirmPassword: "short",
    });
    expect(short.success).toBe(false);
  });
});

describe("login and password reset", () => {
  it("login needs an e-mail and any password", () => {
    expect(loginSchema.safeParse({ email: "a@example.com", password: "x" }).success).toBe(true);
    expect(loginSchema.safeParse({ email: "a@example.com", password: "" }).success).toBe(false);
    expect(loginSchema.safeParse({ email: "", password: "x" }).success).toBe(false);
  });

  it("reset needs the token and two matching passwords", () => {
    const ok = { token: "t", password: "new-password-1", confirmPassword: "new-password-1" };
    expect(resetPasswordSchema.safeParse(ok).success).toBe(true);
    expect(resetPasswordSchema.safeParse({ ...ok, token: "" }).success).toBe(false);
    const mismatch = resetPasswordSchema.safeParse({ ...ok, confirmPassword: "other-pass-1" });
    expect(mismatch.success).toBe(false);
  });
});

describe("profile", () => {
  it("needs a name after trimming", () => {
    const result = profileSchema.safeParse({ name: "   ", phone: "" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error).name).toBe(accountText.nameRequiredDescription);
    expect(profileSchema.parse({ name: "  Meera Iyer " }).name).toBe("Meera Iyer");
  });

  it("takes a name, not a message: the same rules as registration (it is shown on reviews)", () => {
    for (const name of [
      "Claim your refund at https://evil.example",
      "Visit www.evil.example",
      "<b>Meera</b>",
      "Meera\u0000Iyer",
      "M".repeat(ACCOUNT_NAME_MAX + 1),
    ]) {
      expect(profileSchema.safeParse({ name }).success, name.slice(0, 40)).toBe(false);
    }
    expect(profileSchema.parse({ name: "Meera Iyer-Rao" }).name).toBe("Meera Iyer-Rao");
  });

  it("saves an empty phone as null and otherwise needs exactly 10 digits", () => {
    expect(profileSchema.parse({ name: "M", phone: "" }).phone).toBeNull();
    expect(profileSchema.parse({ name: "M", phone: "  " }).phone).toBeNull();
    expect(profileSchema.parse({ name: "M" }).phone).toBeNull();
    expect(profileSchema.parse({ name: "M", phone: " 9876543210 " }).phone).toBe("9876543210");
    for (const written of ["+91 98765 43210", "91-98765-43210", "098765 43210", "98765 43210"]) {
      expect(profileSchema.parse({ name: "M", phone: written }).phone, written).toBe("9876543210");
    }
    for (const phone of ["98765", "98765432101", "98765-4321", "+919876543", "+1 415 555 0100"]) {
      const result = profileSchema.safeParse({ name: "M", phone });
      expect(result.success, phone).toBe(false);
      if (!result.success) {
        expect(fieldErrors(result.error).phone).toBe(accountText.invalidPhoneDescription);
      }
    }
  });
});

describe("safeRedirect", () => {
  it("keeps paths on this site", () => {
    expect(safeRedirect("/cart")).toBe("/cart");
    expect(safeRedirect("/orders?page=2#top")).toBe("/orders?page=2#top");
    expect(safeRedirect("/a/../b")).toBe("/b");
  });

  it("refuses everything else", () => {
    for (const to of [
      undefined,
      null,
      "",
      "cart",
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/\t/evil.example",
      "/%0a/x\n",
      // Dot segments that normalise into a protocol-relative URL.
      "/.//evil.example/phish",
      "/..//evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "/./\\evil.example",
      42,
    ]) {
      expect(safeRedirect(to), String(to)).toBe("/");
    }
    expect(safeRedirect("//evil.example", "/account")).toBe("/account");
  });
});

describe("formFields", () => {
  it("keeps the first string value of each field", () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("a", "2");
    form.append("b", new Blob(["x"]));
    expect(formFields(form)).toEqual({ a: "1" });
  });
});
