import { describe, expect, it } from "vitest";
import {
  defaultQuoteOptions,
  defaultQuoteRates,
  priceQuote,
  thinWallFixText,
} from "../quote-pricing.ts";
import { storedGeometry } from "./geometry.ts";
import { analyseMesh, parseModel } from "./index.ts";
import { checkPrintability, checkPrintabilityDetail } from "./printability.ts";
import { box, cube, merged, toBinaryStl, voxels } from "./testing/shapes.ts";
import type { Mesh, Vec3 } from "./types.ts";

/*
 * Printability on generated shapes with known answers: wall thickness from rays, overhangs and
 * the support under them, and the side the part is laid on.
 */

/** A T of 10 mm cubes: a stem 20 mm tall, a bar 30 mm wide on top (10 mm each side, 90° under). */
const tee = () =>
  voxels(
    [
      [0, 0, 0],
      [0, 0, 1],
      [-1, 0, 2],
      [0, 0, 2],
      [1, 0, 2],
    ],
    10,
  );

describe("wall thickness", () => {
  it("a 0.4 mm wall measures 0.4 mm over its two large faces", () => {
    const p = checkPrintability(box(20, 0.4, 10));
    const [thinnest, area] = p.walls[0];
    expect(thinnest).toBeCloseTo(0.4, 4);
    expect(area).toBeCloseTo(2 * 20 * 10, 3);
    expect(p.wallArea).toBeCloseTo(2 * (20 * 0.4 + 20 * 10 + 0.4 * 10), 3);
  });

  it("a 2 mm wall measures 2 mm; a 20 mm cube 20 mm", () => {
    expect(checkPrintability(box(20, 2, 10)).walls[0][0]).toBeCloseTo(2, 4);
    expect(checkPrintability(cube(20)).walls).toEqual([[expect.closeTo(20, 4), 2400]]);
  });

  it("measures every face of a small model and a spread of a large one", () => {
    const small = checkPrintabilityDetail(box(20, 0.4, 10));
    expect(small.thickness.every((d) => Number.isFinite(d))).toBe(true);
    const large = checkPrintabilityDetail(box(40, 40, 40, { divisions: 60 }));
    const measured = large.thickness.filter((d) => !Number.isNaN(d)).length;
    expect(large.thickness.length).toBe(6 * 60 * 60 * 2);
    expect(measured).toBeLessThanOrEqual(40_000);
    expect(measured).toBeGreaterThan(20_000);
    // Every ray crosses the whole box.
    expect(large.walls).toEqual([[expect.closeTo(40, 3), expect.closeTo(6 * 1600, 0)]]);
  });
});

describe("overhangs and orientation", () => {
  it("a T standing up needs support under both arms of its bar: 200 mm², 4,000 mm³", () => {
    const p = checkPrintabilityDetail(tee(), { down: { x: 0, y: 0, z: -1 } });
    expect(p.overhangArea).toBeCloseTo(200, 6);
    expect(p.supportVolume).toBeCloseTo(200 * 20, 6);
    // Four triangles: the two 10 × 10 undersides; the stem's foot rests on the bed.
    expect(p.overhang.reduce((n, f) => n + f, 0)).toBe(4);
  });

  it("a cube needs no support; its bottom rests on the bed", () => {
    const p = checkPrintability(cube(20));
    expect(p.down).toEqual({ x: 0, y: 0, z: -1 });
    expect(p.bedArea).toBeCloseTo(400, 6);
    expect(p.overhangArea).toBe(0);
    expect(p.supportVolume).toBe(0);
  });

  it("lays the T on its largest flat face (its side, 500 mm²), where it needs no support", () => {
    const p = checkPrintability(tee());
    expect(Math.abs(p.down.y)).toBe(1);
    expect(p.bedArea).toBeCloseTo(500, 6);
    expect(p.overhangArea).toBe(0);
  });

  it("turns a plate standing on its edge flat", () => {
    const p = checkPrintability(box(40, 30, 2));
    expect(p.down).toEqual({ x: 0, y: 0, z: -1 });
    const standing = checkPrintability(box(2, 30, 40));
    expect(standing.down).toEqual({ x: -1, y: 0, z: 0 });
    expect(standing.bedArea).toBeCloseTo(1200, 6);
  });

  it("lays a tilted plate on one of its large faces, a direction found from the faces, not an axis", () => {
    // A 40 × 30 × 2 mm plate turned 30° about x, then 20° about z, made of many faces (the
    // flat-face search files faces by direction and only tests the directions near each one).
    const plate = box(40, 30, 2, { divisions: 12 });
    const [a, b] = [Math.PI / 6, Math.PI / 9];
    const positions = plate.positions.slice();
    for (let i = 0; i < positions.length; i += 3) {
      const [x, y, z] = [positions[i], positions[i + 1], positions[i + 2]];
      const [y1, z1] = [y * Math.cos(a) - z * Math.sin(a), y * Math.sin(a) + z * Math.cos(a)];
      positions[i] = x * Math.cos(b) - y1 * Math.sin(b);
      positions[i + 1] = x * Math.sin(b) + y1 * Math.cos(b);
      positions[i + 2] = z1;
    }
    const p = checkPrintability({ positions, indices: plate.indices });
    // The plate's z axis after both turns.
    const axis = [Math.sin(a) * Math.sin(b), -Math.sin(a) * Math.cos(b), Math.cos(a)];
    expect(Math.abs(p.down.x * axis[0] + p.down.y * axis[1] + p.down.z * axis[2])).toBeCloseTo(
      1,
      5,
    );
    expect(p.bedArea).toBeCloseTo(1200, 1);
    expect(p.overhangArea).toBe(0);
  });
});

describe("printability in the price", () => {
  const rates = defaultQuoteRates;
  const options = defaultQuoteOptions(rates);
  const measure = (mesh: Mesh, down?: Vec3) => {
    const model = parseModel(toBinaryStl(mesh), "part.stl");
    return storedGeometry(
      model,
      analyseMesh(model, { unit: "mm", scale: 1, printers: [] }),
      checkPrintability(model.mesh, { down }),
    );
  };

  it("a 0.4 mm wall is refused for PLA (0.8 mm), with what would fix it", () => {
    const { breakdown, problems } = priceQuote(measure(box(20, 0.4, 10)), options, rates);
    expect(problems).toEqual(["thin-walls"]);
    expect(breakdown.thinnestWallMm).toBeCloseTo(0.4, 4);
    expect(thinWallFixText(breakdown, "PLA", 100)).toBe(
      "Walls as thin as 0.4 mm: PLA needs at least 0.8 mm. Thicken them to 0.8 mm, or scale the model to 200 % or more.",
    );
    // At 200 % the wall is 0.8 mm: fine.
    const doubled = priceQuote(measure(box(20, 0.4, 10)), { ...options, scalePercent: 200 }, rates);
    expect(doubled.problems).toEqual([]);
    // Read in inches the same wall is 10 mm.
    expect(
      priceQuote(measure(box(20, 0.4, 10)), { ...options, unit: "inch" }, rates).problems,
    ).not.toContain("thin-walls");
  });

  it("a 2 mm wall is fine for PLA and for TPU (1.2 mm)", () => {
    const g = measure(box(20, 2, 10));
    expect(priceQuote(g, options, rates).problems).toEqual([]);
    const tpu = { ...options, materialId: "tpu", colour: "Black" };
    const { breakdown, problems } = priceQuote(g, tpu, rates);
    expect(problems).toEqual([]);
    expect(thinWallFixText(breakdown, "TPU", 100)).toBeNull();
  });

  it("prices the support a standing T needs: 4,000 mm³ at 15 % fill", () => {
    const standing = priceQuote(measure(tee(), { x: 0, y: 0, z: -1 }), options, rates).breakdown;
    const lying = priceQuote(measure(tee()), options, rates).breakdown;
    expect(lying.supportGrams).toBe(0);
    expect(standing.supportGrams).toBeCloseTo((4000 * 0.15 * 1.24) / 1000, 9);
    expect(standing.grams - lying.grams).toBeCloseTo(standing.supportGrams, 9);
    expect(standing.materialPaise).toBeGreaterThan(lying.materialPaise);
  });

  it("quotes made before the checks price as they did", () => {
    const g = measure(cube(20));
    const { printability: _p, ...before } = g;
    const now = priceQuote(g, options, rates).breakdown;
    expect(priceQuote(before, options, rates).breakdown.unitPricePaise).toBe(now.unitPricePaise);
  });
});

describe("hostile shapes", () => {
  it("a stray point far away does not make the wall check slow: fewer faces are measured", () => {
    // 21,600 faces of a 40 mm box, and a speck 100 m away.
    const stray = merged(
      box(40, 40, 40, { divisions: 30 }),
      box(0.001, 0.001, 0.001, { offset: [100_000, 100_000, 100_000] }),
    );
    const started = performance.now();
    const p = checkPrintability(stray);
    // Generous for a busy machine; it took minutes before the work limit.
    expect(performance.now() - started).toBeLessThan(20_000);
    // The faces measured still find the box's 40 mm, standing for all of its surface.
    expect(p.walls[0][0]).toBeCloseTo(40, 3);
    expect(p.walls[0][1]).toBeCloseTo(p.wallArea, 0);
  });

  it("large faces on a fine grid stay within the grid's memory", () => {
    // Twelve faces spanning everything, and 19,200 tiny ones in one corner.
    const p = checkPrintability(merged(box(100, 100, 100), box(1, 1, 1, { divisions: 40 })));
    expect(p.walls.length).toBeGreaterThan(0);
    // The little box's walls are 1 mm wherever they were measured.
    expect(p.walls[0][0]).toBeCloseTo(1, 3);
  });
});
