import { describe, expect, it } from "vitest";
import {
  codedText,
  codedWindows,
  digitWordsOf,
  editsFor,
  isAsciiText,
  levenshtein,
  rankByRule,
  sharedAtLeast,
  trigramsOf,
  wordSimilarity,
  wordTestsOf,
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

  it("tests a word with a digit as the rule does, refusing early only texts the rule refuses", () => {
    // The rule written out, with nothing skipped.
    const ruleTest = (w: string, text: string, words: string[]) => {
      const pattern = trigramsOf(w);
      const t = trigramsOf(text);
      const near = words.some((x) => x.startsWith(w) || levenshtein(x, w) <= editsFor(w));
      return (
        wordSimilarity(pattern, t) >= 0.25 && (near || wordSimilarity(pattern, t, true) >= 0.4)
      );
    };
    let seed = 20261127;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const wordOf = (alphabet: string, max: number) =>
      Array.from(
        { length: 1 + Math.floor(next() * max) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join("");
    const patterns = ["4821", "48210", "20t", "3d", "12", "1111", "x12", "a1b2", "999999"];
    let passed = 0;
    for (let i = 0; i < 4000; i++) {
      const w = i < 400 ? (patterns[i % patterns.length] as string) : wordOf("0123456789t", 6);
      if (!/[0-9]/.test(w) || w.length < 2) continue;
      // Random words, and the word itself changed by an edit or two, or extended.
      const changed = () => {
        let x = w;
        for (let e = Math.floor(next() * 3); e > 0; e--) {
          const at = Math.floor(next() * (x.length + 1));
          const c = wordOf("0123456789t", 1);
          const kind = next();
          x =
            kind < 0.33
              ? x.slice(0, at) + c + x.slice(at)
              : kind < 0.66
                ? x.slice(0, at) + c + x.slice(at + 1)
                : x.slice(0, at) + x.slice(at + 1);
        }
        return next() < 0.2 ? x + wordOf("0123", 2) : x;
      };
      const text = Array.from({ length: 1 + Math.floor(next() * 5) }, () => {
        const r = next();
        return r < 0.35 ? changed() : r < 0.7 ? wordOf("012348", 6) : wordOf("abt1", 5);
      })
        .filter((x) => x.length > 0)
        .join(next() < 0.8 ? " " : "-");
      const words = text.split(/[^0-9a-z]+/).filter((x) => x.length > 0);
      const [test] = wordTestsOf([w], new Map());
      const expected = ruleTest(w, text, words);
      expect(
        test?.(text, words, () => trigramsOf(text)),
        `${w} in ${text}`,
      ).toBe(expected);
      if (!expected) continue;
      passed++;
      // A text passing has at least `sharedAtLeast` of the word's trigrams.
      const own = new Set(trigramsOf(w).codes);
      const shared = new Set([...trigramsOf(text).codes].filter((c) => own.has(c)));
      expect(shared.size, `${w} in ${text}`).toBeGreaterThanOrEqual(sharedAtLeast(w));
    }
    expect(passed).toBeGreaterThan(200);
    expect(digitWordsOf("lamp 4821 दीया12 3d").nextToOther).toBe(true);
    expect(digitWordsOf("lamp 4821 3d").words.length).toBe(2);
  });

  it("says how many of a word's trigrams a text passing it has at least, with near words or without", () => {
    let seed = 20261128;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const wordOf = (max: number) =>
      Array.from(
        { length: 1 + Math.floor(next() * max) },
        () => "abcde"[Math.floor(next() * 5)],
      ).join("");
    let passed = 0;
    for (let i = 0; i < 4000; i++) {
      const w = wordOf(8);
      if (w.length < 3) continue;
      // Texts of the word's pieces and random words, so some are strictly similar to it.
      const text = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
        next() < 0.5
          ? w.slice(Math.floor(next() * 3), w.length - Math.floor(next() * 3))
          : wordOf(6),
      )
        .filter((x) => x.length > 0)
        .join(" ");
      // Near no word of the catalogue: strictly similar, or not at all.
      const [test] = wordTestsOf([w], new Map([[w, []]]));
      const t = trigramsOf(text);
      const pattern = trigramsOf(w);
      const strictly =
        wordSimilarity(pattern, t) >= 0.25 && wordSimilarity(pattern, t, true) >= 0.4;
      expect(
        test?.(text, text.split(" "), () => t),
        `${w} in ${text}`,
      ).toBe(strictly);
      if (!strictly) continue;
      passed++;
      const own = new Set(pattern.codes);
      const shared = new Set([...t.codes].filter((c) => own.has(c)));
      expect(shared.size, `${w} in ${text}`).toBeGreaterThanOrEqual(sharedAtLeast(w, false));
    }
    expect(passed).toBeGreaterThan(300);
    // With near words (a word starting with it, or within its edits), fewer: a text passing has
    // at least `sharedAtLeast(w)` of them, which its words have between them.
    passed = 0;
    for (let i = 0; i < 4000; i++) {
      const w = wordOf(8);
      if (w.length < 3) continue;
      const words = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const r = next();
        if (r < 0.3) return w.slice(0, w.length - Math.floor(next() * 3)) + wordOf(2);
        if (r < 0.5) {
          const at = Math.floor(next() * w.length);
          return w.slice(0, at) + wordOf(1) + w.slice(at + 1 + Math.floor(next() * 2));
        }
        return wordOf(6);
      });
      const text = words.join(" ");
      const t = trigramsOf(text);
      const pattern = trigramsOf(w);
      const near = words.some((x) => x.startsWith(w) || levenshtein(x, w) <= editsFor(w));
      const expected =
        wordSimilarity(pattern, t) >= 0.25 && (near || wordSimilarity(pattern, t, true) >= 0.4);
      const [test] = wordTestsOf([w], new Map());
      expect(
        test?.(text, words, () => t),
        `${w} in ${text}`,
      ).toBe(expected);
      if (!expected) continue;
      passed++;
      const own = new Set(pattern.codes);
      const byWords = words.reduce(
        (n, x) => n + new Set([...trigramsOf(x).codes].filter((c) => own.has(c))).size,
        0,
      );
      expect(byWords, `${w} in ${text}`).toBeGreaterThanOrEqual(sharedAtLeast(w));
    }
    expect(passed).toBeGreaterThan(300);
    // Stricter than with near words: "zebra" shares 3 of its 6 at least (2 with "zara" near).
    expect([sharedAtLeast("zebra", false), sharedAtLeast("zebra")]).toEqual([3, 2]);
  });
});
