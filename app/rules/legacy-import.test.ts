import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLegacyExport } from "./legacy-import.ts";

const fixtureText = readFileSync(
  new URL("../../tests/fixtures/legacy-products.json", import.meta.url),
  "utf8",
);

function entriesOf(text: string) {
  const r = parseLegacyExport(text);
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe("the old shop's JSON export", () => {
  it("reads the shared fixture (documents under `products`, beside a note)", () => {
    const r = entriesOf(fixtureText);
    expect(r.entries.map((e) => e.id)).toEqual([
      "p-dragon-01",
      "p-lamp-02",
      "p-goku-03",
      "p-planter-04",
      "p-broken-05",
      "p-keychain-06",
      "p-knight-07",
    ]);
    expect(r.failures).toEqual([]);
  });

  it("reads an object of id → document", () => {
    const r = entriesOf(JSON.stringify({ a1: { name: "A" }, b2: { name: "B" } }));
    expect(r.entries).toEqual([
      { id: "a1", label: "a1", doc: { name: "A" } },
      { id: "b2", label: "b2", doc: { name: "B" } },
    ]);
  });

  it("reads an array, taking ids from id, productId or _id, and flags repeats", () => {
    const r = entriesOf(
      JSON.stringify([
        { id: "x", name: "A" },
        { productId: "y", name: "B" },
        { _id: 7, name: "C" },
        { name: "No id" },
        { id: "x", name: "Again" },
      ]),
    );
    expect(r.entries.map((e) => [e.id, e.label])).toEqual([
      ["x", "x (item 1)"],
      ["y", "y (item 2)"],
      ["7", "7 (item 3)"],
      ["", "item 4"],
    ]);
    expect(r.failures).toEqual([{ label: "x (item 5)", id: "x", reason: "the same id as item 1" }]);
  });

  it("an object whose `products` is itself a document is a collection, not a wrapper", () => {
    const r = entriesOf(JSON.stringify({ products: { name: "P" }, other: { name: "O" } }));
    expect(r.entries.map((e) => e.id)).toEqual(["products", "other"]);
  });

  it("refuses what isn't a product export", () => {
    expect(parseLegacyExport("not json")).toEqual({
      ok: false,
      error: "The file is not valid JSON.",
    });
    expect(parseLegacyExport("42")).toMatchObject({ ok: false });
    expect(parseLegacyExport("\uFEFF[]")).toEqual({ ok: true, entries: [], failures: [] });
  });
});
