import { describe, expect, it } from "vitest";
import {
  bodiesText,
  defaultQuoteOptions,
  defaultQuoteRates,
  priceQuote,
} from "../quote-pricing.ts";
import { storedGeometry } from "./geometry.ts";
import { analyseMesh, parseModel } from "./index.ts";
import { measureShells } from "./shells.ts";
import { box, cube, flipped, merged, to3mfObjects, toBinaryStl } from "./testing/shapes.ts";
import type { Mesh } from "./types.ts";

/*
 * Several separate bodies in one file: said so, and priced body by body (each its own part),
 * never by the bounding box around all of them.
 */

const measure = (bytes: Uint8Array, name: string) => {
  const model = parseModel(bytes, name);
  return storedGeometry(model, analyseMesh(model, { unit: "mm", scale: 1, printers: [] }));
};
const options = defaultQuoteOptions(defaultQuoteRates);
const rates = defaultQuoteRates;

/** Two 20 mm cubes, 200 mm apart: their bounding box is 220 × 20 × 20 mm. */
const twoCubes = (): Mesh => merged(cube(20), box(20, 20, 20, { offset: [200, 0, 0] }));

describe("bodies", () => {
  it("finds two cubes in one STL, each with its own volume, area and size", () => {
    const g = measure(toBinaryStl(twoCubes()), "two.stl");
    expect(g.bodyCount).toBe(2);
    expect(g.bodies).toHaveLength(2);
    for (const body of g.bodies ?? []) {
      expect(body.volume).toBeCloseTo(8000, 6);
      expect(body.area).toBeCloseTo(2400, 6);
      expect(body.size).toEqual({ x: 20, y: 20, z: 20 });
      expect(body.triangles).toBe(12);
    }
    expect(g.size).toEqual({ x: 220, y: 20, z: 20 });
    expect(g.volume).toBeCloseTo(16_000, 6);
  });

  it("one body lists nothing more (and costs no second pass)", () => {
    const g = measure(toBinaryStl(cube(20)), "one.stl");
    expect(g.bodyCount).toBe(1);
    expect(g.bodies).toBeUndefined();
    expect(measureShells(cube(20), 8000)).toEqual({ count: 1, positive: 1, negative: 0, list: [] });
  });

  it("prices two cubes as two parts: twice one cube's cost, whatever the gap between them", () => {
    const one = priceQuote(measure(toBinaryStl(cube(20)), "one.stl"), options, rates).breakdown;
    const near = priceQuote(
      measure(toBinaryStl(merged(cube(20), box(20, 20, 20, { offset: [30, 0, 0] }))), "near.stl"),
      options,
      rates,
    );
    const far = priceQuote(measure(toBinaryStl(twoCubes()), "two.stl"), options, rates);
    expect(far.problems).toEqual([]);
    expect(far.breakdown.bodies).toBe(2);
    expect(far.breakdown.setupPaise).toBe(2 * one.setupPaise);
    expect(far.breakdown.grams).toBeCloseTo(2 * one.grams, 9);
    expect(far.breakdown.printHours).toBeCloseTo(2 * one.printHours, 9);
    expect(far.breakdown.unitPricePaise).toBe(near.breakdown.unitPricePaise);
  });

  it("fits the printers body by body, not by the box around all bodies", () => {
    // Two 200 mm cubes side by side: 600 mm across, each fits a 256 mm printer.
    const big = merged(box(200, 200, 200), box(200, 200, 200, { offset: [400, 0, 0] }));
    const g = measure(toBinaryStl(big), "pair.stl");
    expect(g.size.x).toBe(600);
    const { breakdown, problems } = priceQuote(g, options, rates);
    expect(problems).not.toContain("too-large");
    expect(breakdown.fitsPrinters).toEqual(rates.printers.map((p) => p.name));
    // A single body 600 mm across does not fit.
    expect(
      priceQuote(measure(toBinaryStl(box(600, 200, 200)), "long.stl"), options, rates).problems,
    ).toContain("too-large");
  });

  it("a 3MF with two objects is two bodies", () => {
    const g = measure(
      to3mfObjects([
        { mesh: cube(10) },
        { mesh: box(5, 5, 5), transform: "1 0 0 0 1 0 0 0 1 50 0 0" },
      ]),
      "pair.3mf",
    );
    expect(g.bodyCount).toBe(2);
    expect(g.bodies?.map((b) => b.size.x)).toEqual([10, 5]);
  });

  it("says so in the customer's words", () => {
    expect(bodiesText(1, ["20 × 20 × 20 mm"])).toBeNull();
    expect(bodiesText(2, ["20 × 20 × 20 mm", "5 × 5 × 5 mm"])).toBe(
      "This file holds 2 separate bodies, each priced as a part of its own: 20 × 20 × 20 mm and 5 × 5 × 5 mm.",
    );
    expect(bodiesText(7, ["a", "b", "c", "d", "e", "f", "g"])).toBe(
      "This file holds 7 separate bodies, each priced as a part of its own: a, b, c, d and e (and 2 more).",
    );
    expect(bodiesText(150, [])).toBe("This file holds 150 separate bodies.");
  });

  it("a hollow part's cavity is no body of its own (and staff price it)", () => {
    const hollow = merged(box(30, 30, 30), flipped(box(10, 10, 10, { offset: [10, 10, 10] })));
    const g = measure(toBinaryStl(hollow), "hollow.stl");
    expect(g.mixedShells).toBe(true);
    expect(g.bodyCount).toBe(1);
    expect(g.bodies).toBeUndefined();
    expect(priceQuote(g, options, rates).problems).toEqual(["mixed-shells"]);
  });

  it("more bodies than can be listed go to staff", () => {
    const many = {
      volume: 100,
      area: 100,
      size: { x: 5, y: 5, z: 5 },
      watertight: true,
      bodyCount: 150,
    };
    expect(priceQuote(many, options, rates).problems).toContain("too-many-bodies");
  });
});
