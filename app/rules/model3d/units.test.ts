import { describe, expect, it } from "vitest";
import {
  defaultQuoteOptions,
  defaultQuoteRates,
  priceQuote,
  tooLargeFixText,
} from "../quote-pricing.ts";
import { storedGeometry } from "./geometry.ts";
import { analyseMesh, parseModel } from "./index.ts";
import { box, to3mf, toBinaryStl } from "./testing/shapes.ts";
import { formatSize, otherLikelyUnits, readingText, sizeInMm, unitForStaff } from "./units.ts";

/** A part 12.7 × 9.5 × 3 drawn in inches (322.58 × 241.3 × 76.2 mm), as an STL without a unit. */
const inchPart = () => parseModel(toBinaryStl(box(12.7, 9.5, 3)), "bracket.stl");
const measured = (name: string, bytes: Uint8Array) => {
  const model = parseModel(bytes, name);
  return storedGeometry(model, analyseMesh(model, { unit: "mm", scale: 1, printers: [] }));
};

describe("units of a file that states none", () => {
  it("shows a part drawn in inches with both readings and offers the switch", () => {
    const g = measured("bracket.stl", toBinaryStl(box(12.7, 9.5, 3)));
    expect(g.fileUnit).toBeNull();
    expect(otherLikelyUnits(g.size, g.fileUnit, "mm")).toEqual(["cm", "inch"]);
    expect(readingText(g.size, "mm")).toBe("12.7 × 9.5 × 3 mm if the file is in millimetres");
    expect(readingText(g.size, "inch")).toBe("323 × 241 × 76.2 mm if the file is in inches");
    // Switched to inches, millimetres stays on offer (the file's plain reading).
    expect(otherLikelyUnits(g.size, g.fileUnit, "inch")).toEqual(["mm", "cm"]);
  });

  it("offers nothing for a believable size in millimetres, or for a 3MF", () => {
    expect(otherLikelyUnits({ x: 40, y: 30, z: 20 }, null, "mm")).toEqual([]);
    expect(otherLikelyUnits({ x: 0.5, y: 0.2, z: 0.1 }, "mm", "mm")).toEqual([]);
  });

  it("offers metres for a part drawn in metres", () => {
    expect(otherLikelyUnits({ x: 0.3, y: 0.2, z: 0.1 }, null, "mm")).toEqual(["m"]);
    expect(formatSize(sizeInMm({ x: 0.3, y: 0.2, z: 0.1 }, "m"))).toBe("300 × 200 × 100 mm");
  });

  it("prices the cube drawn in inches at 25.4× its size when the customer says inches", () => {
    const model = inchPart();
    const g = storedGeometry(model, analyseMesh(model, { unit: "mm", scale: 1, printers: [] }));
    const rates = defaultQuoteRates;
    const asMm = priceQuote(g, { ...defaultQuoteOptions(rates), unit: "mm" }, rates).breakdown;
    const asInch = priceQuote(g, { ...defaultQuoteOptions(rates), unit: "inch" }, rates);
    expect(asMm.unit).toBe("mm");
    expect(asInch.breakdown.unit).toBe("inch");
    expect(asInch.breakdown.size.x).toBeCloseTo(322.58, 3);
    expect(asInch.breakdown.volumeMm3).toBeCloseTo(12.7 * 9.5 * 3 * 25.4 ** 3, 0);
    // 322 mm is longer than either default printer: the honest reading is also the one refused.
    expect(asInch.problems).toContain("too-large");
    expect(asInch.breakdown.unitPricePaise).toBeGreaterThan(asMm.unitPricePaise);
    // And it says what would fix that, and it does.
    expect(tooLargeFixText(asInch.breakdown)).toBe("At 93 % or less it fits the Creality K1 Max.");
    const at93 = priceQuote(
      g,
      { ...defaultQuoteOptions(rates), unit: "inch", scalePercent: 93 },
      rates,
    );
    expect(at93.problems).not.toContain("too-large");
    expect(at93.breakdown.fitsPrinters).toEqual(["Creality K1 Max"]);
    expect(tooLargeFixText(at93.breakdown)).toBeNull();
  });

  it("a 3MF's own unit wins over the customer's choice, on the server's price too", () => {
    // One inch cube declared in inches: read as 25.4 mm whatever the form says.
    const g = measured("in.3mf", to3mf(box(1, 1, 1), { unit: "inch" }));
    expect(g.fileUnit).toBe("mm");
    expect(g.size.x).toBeCloseTo(25.4, 4);
    const rates = defaultQuoteRates;
    const tampered = priceQuote(g, { ...defaultQuoteOptions(rates), unit: "inch" }, rates);
    expect(tampered.breakdown.unit).toBe("mm");
    expect(tampered.breakdown.size.x).toBeCloseTo(25.4, 4);
    expect(otherLikelyUnits(g.size, g.fileUnit, "mm")).toEqual([]);
  });

  it("tells staff which unit was priced and who chose it", () => {
    expect(unitForStaff(null, "inch")).toBe("inches (the customer's choice; the file states none)");
    expect(unitForStaff(null, undefined)).toBe(
      "millimetres (the customer's choice; the file states none)",
    );
    expect(unitForStaff("mm", "inch")).toBe("millimetres (stated in the file)");
  });
});
