import { describe, expect, it } from "vitest";
import {
  codedText,
  codedWindows,
  isAsciiText,
  rankByRule,
  trigramsOf,
  wordSimilarity,
} from "./search-similarity.ts";

describe("search similarity (the database's own measures are compared in search-similarity.integration.test.ts)", () => {
  it("makes a word's trigrams padded as pg_trgm pads them, marking where words start and end", () => {
    const { codes, left, right } = trigramsOf("Ab c");
    const text = [...codes].map((c) =>
      String.fromCharCode((c >> 14) & 127, (c >> 7) & 127, c & 127),
    );
    expect(text).toEqual(["  a", " ab", "ab ", "  c", " c "]);
    expect([...left]).toEqual([1, 0, 0, 1, 0]);
    expect([...right]).toEqual([0, 0, 1, 0, 1]);
    expect(trigramsOf("").codes.length).toBe(0);
    expect(trigramsOf("--").codes.length).toBe(0);
  });

  it("finds a word in a text, strictly only at word bounds", () => {
    const tealight = trigramsOf("tealight");
    expect(wordSimilarity(tealight, trigramsOf("tealight holder"))).toBe(1);
    expect(wordSimilarity(trigramsOf("word"), trigramsOf(""))).toBe(0);
    // Across two words: "tea light".
    const across = trigramsOf("lotus tea light holder");
    expect(wordSimilarity(tealight, across, true)).toBeGreaterThanOrEqual(0.4);
  });

  it("ranks containing first, then by similarity, then by name", () => {
    const rows = [
      { id: "b", text: "lamp for a desk", words: ["lamp", "for", "a", "desk"], byName: 2 },
      { id: "a", text: "desk lamp", words: ["desk", "lamp"], byName: 1 },
      { id: "c", text: "zebra", words: ["zebra"], byName: 3 },
      { id: "d", text: "desk lamps", words: ["desk", "lamps"], byName: 4 },
    ];
    const nearOf = new Map([
      ["desk", ["desk"]],
      ["lamp", ["lamp", "lamps"]],
    ]);
    const ranked = rankByRule(
      { q: "desk lamp", words: ["desk", "lamp"], nearOf, wanted: 10 },
      rows,
    );
    expect(ranked.ids).toEqual(["a", "d", "b"]);
    expect(ranked.containing).toBe(2);
  });

  it("codes separators (and z) so that trigrams span them", () => {
    expect(codedText("self-watering pot")).toBe("selfz2dwateringz20pot");
    expect(codedText("zip % _")).toBe("z7aipz20z25z20z5f");
    expect(codedText("गणेश idol")).toBe("गणेशz20idol");
    expect(codedWindows("self watering pot")).toEqual(["lfz20wa", "ngz20po"]);
    expect(codedWindows("a - b")).toEqual(["az20z2dz20b"]);
    expect(codedWindows("lamp")).toEqual([]);
    expect(codedWindows("lamp ")).toEqual([]);
    for (const w of codedWindows("pizza, stand")) expect(codedText("pizza, stands")).toContain(w);
    // Characters, not UTF-16 units: a letter outside the BMP stays whole (review).
    expect(codedWindows("x𝐀 lamp")).toEqual(["x𝐀z20la"]);
    expect(codedText("ax𝐀 lamps")).toContain("x𝐀z20la");
  });

  it("leaves other scripts to the database", () => {
    expect(isAsciiText("desk lamp 3d\tprints")).toBe(true);
    expect(isAsciiText("गणेश")).toBe(false);
    expect(isAsciiText("café")).toBe(false);
  });
});
