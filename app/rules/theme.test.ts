import { describe, expect, it } from "vitest";
import { parseTheme, themeCookie, themeFromCookieHeader } from "./theme.ts";

describe("theme preference", () => {
  it("reads the theme cookie among others and falls back to system", () => {
    expect(themeFromCookieHeader("a=1; lk_theme=dark; b=2")).toBe("dark");
    expect(themeFromCookieHeader("lk_theme=light")).toBe("light");
    expect(themeFromCookieHeader("lk_theme=purple")).toBe("system");
    expect(themeFromCookieHeader(null)).toBe("system");
    expect(parseTheme(undefined)).toBe("system");
  });

  it("keeps the choice for a year", () => {
    expect(themeCookie("dark", false)).toContain("Max-Age=31536000");
    expect(themeCookie("dark", true)).toContain("Secure");
  });
});
