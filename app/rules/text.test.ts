import { describe, expect, it } from "vitest";
import { cleanJson, cleanText, hasControlCharacters } from "./text.ts";

describe("text the shop accepts", () => {
  it("refuses NUL and other control characters, keeps tabs and line breaks", () => {
    for (const bad of ["a\u0000b", "\u0007", "x\u001b[31m", "\u007f", "\u0085", "\u009b"]) {
      expect(hasControlCharacters(bad), JSON.stringify(bad)).toBe(true);
      expect(cleanText(bad)).toBeNull();
    }
    expect(cleanText("line one\r\nline two\tend")).toBe("line one\r\nline two\tend");
  });

  it("normalises to the composed form", () => {
    expect(cleanText("Cafe\u0301")).toBe("Café");
    expect(cleanText("नमस्ते")).toBe("नमस्ते");
  });

  it("cleans every string and key of a JSON value", () => {
    expect(cleanJson({ a: ["Cafe\u0301", 1, null], b: { c: true } })).toEqual({
      value: { a: ["Café", 1, null], b: { c: true } },
    });
    expect(cleanJson({ a: ["ok", "bad\u0000"] })).toBeNull();
    expect(cleanJson({ "k\u0000": 1 })).toBeNull();
  });
});
