import { describe, expect, it } from "vitest";
import { defaultQuoteOptions, defaultQuoteRates, priceQuote } from "../quote-pricing.ts";
import { analyseMesh, parseModel, shellSigns } from "./index.ts";
import { box, cube, flipped, merged, toBinaryStl } from "./testing/shapes.ts";

/*
 * Shells facing opposite ways: a second shell turned inside out cancels volume, so the part
 * would be priced far below what a slicer prints. Such models go to staff, not to the cart.
 */

const analyse = (mesh: ReturnType<typeof cube>) =>
  analyseMesh(parseModel(toBinaryStl(mesh), "part.stl"), { unit: "mm", scale: 1, printers: [] });

describe("shells", () => {
  it("counts shells and the sign of each one's volume", () => {
    expect(shellSigns(cube(10))).toEqual({ shells: 1, positive: 1, negative: 0 });
    expect(shellSigns(flipped(cube(10)))).toEqual({ shells: 1, positive: 0, negative: 1 });
    const two = merged(cube(10), box(5, 5, 5, { offset: [20, 0, 0] }));
    expect(shellSigns(two)).toEqual({ shells: 2, positive: 2, negative: 0 });
  });

  it("an inside-out shell beside a normal one is mixed and can't be priced instantly", () => {
    const crafted = merged(
      box(120, 120, 120),
      flipped(box(119, 119, 119, { offset: [200, 0, 0] })),
    );
    const a = analyse(crafted);
    expect(a.watertight).toBe(true);
    expect(a.mixedShells).toBe(true);
    const { problems } = priceQuote(
      {
        volume: a.volume,
        area: a.area,
        size: a.size,
        watertight: a.watertight,
        mixedShells: a.mixedShells,
      },
      defaultQuoteOptions(defaultQuoteRates),
      defaultQuoteRates,
    );
    expect(problems).toContain("mixed-shells");
  });

  it("normal parts, several of them, or one turned inside out entirely are not mixed", () => {
    expect(analyse(cube(10)).mixedShells).toBe(false);
    expect(analyse(flipped(cube(10))).mixedShells).toBe(false);
    expect(analyse(merged(cube(10), box(5, 5, 5, { offset: [20, 0, 0] }))).mixedShells).toBe(false);
  });
});
