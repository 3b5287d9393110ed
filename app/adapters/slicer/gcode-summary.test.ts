import { describe, expect, it } from "vitest";
import { parseDuration, parseGcodeSummary, unreliableOutput } from "./gcode-summary.ts";

// The end of a real PrusaSlicer 2.5 G-code (trimmed), with relative extrusion.
const SUMMARY = [
  "; filament used [mm] = 1000.00",
  "; filament used [cm3] = 2.41",
  "; filament used [g] = 8.00",
  "; total filament used [g] = 8.00",
  "; total filament cost = 0.00",
  "; estimated printing time (normal mode) = 1h 22m 16s",
  "; estimated first layer printing time (normal mode) = 1m 2s",
].join("\n");

describe("the G-code's summary comments", () => {
  it("reads grams and the normal-mode time, not the first layer's", () => {
    const body = [";TYPE:External perimeter", "G1 X1 Y1 E.5", SUMMARY].join("\n");
    expect(parseGcodeSummary(body)).toEqual({
      grams: 8,
      supportGrams: 0,
      printSeconds: 3600 + 22 * 60 + 16,
    });
  });

  it("gives support its share of the filament pushed in support sections", () => {
    const body = [
      ";TYPE:Support material",
      "G1 X1 Y1 E100",
      "G1 E-2 F2400",
      "G1 E2 F2400",
      ";TYPE:Support material interface",
      "G1 X2 Y2 E.5",
      "G1 X2 Y3 E50",
      ";TYPE:Internal infill",
      "G1 X3 Y3 E400",
      "; support_material = 1",
      SUMMARY,
    ].join("\n");
    const summary = parseGcodeSummary(body)!;
    // 150.5 mm of 1000 mm (retractions net out): 15.05 % of 8 g.
    expect(summary.supportGrams).toBeCloseTo(1.204, 6);
    expect(summary.grams).toBe(8);
  });

  it("leaves the skirt or brim out of the part's grams: it is spent once per plate", () => {
    const body = [
      ";TYPE:Skirt/Brim",
      "G1 X0 Y0 E40",
      "G1 X0 Y1 E10",
      ";TYPE:Support material",
      "G1 X1 Y1 E100",
      ";TYPE:External perimeter",
      "G1 X2 Y2 E850",
      SUMMARY,
    ].join("\n");
    const summary = parseGcodeSummary(body)!;
    // 50 mm of the 1000 mm was the skirt: 5 % of 8 g out; the support keeps its 100 mm.
    expect(summary.grams).toBeCloseTo(7.6, 9);
    expect(summary.supportGrams).toBeCloseTo(0.8, 9);
    // Without the filament's length the skirt's share can't be told: no figures.
    expect(parseGcodeSummary(body.replace("; filament used [mm] = 1000.00", ""))).toBeNull();
  });

  it("is null when the estimates are missing or empty (an aborted file)", () => {
    expect(parseGcodeSummary("G1 X1 Y1 E1\n")).toBeNull();
    expect(
      parseGcodeSummary(SUMMARY.replace("filament used [g] = 8.00", "filament used [g] = 0")),
    ).toBeNull();
    expect(parseGcodeSummary(SUMMARY.replace("= 1h 22m 16s", "= soon"))).toBeNull();
  });

  it("adds up several extruders' grams", () => {
    const body = SUMMARY.replace("filament used [g] = 8.00", "filament used [g] = 2.50, 1.25");
    expect(parseGcodeSummary(body)!.grams).toBe(3.75);
  });

  it("reads durations with days, and any part missing", () => {
    expect(parseDuration("19m 12s")).toBe(1152);
    expect(parseDuration("1d 2h 3m 4s")).toBe(86400 + 7200 + 180 + 4);
    expect(parseDuration("45s")).toBe(45);
    expect(parseDuration("2h")).toBe(7200);
    expect(parseDuration("")).toBeNull();
    expect(parseDuration("12 minutes")).toBeNull();
  });
});

describe("PrusaSlicer's console output", () => {
  it("ignores the [trace] line it prints on every run and the progress lines", () => {
    const output = [
      "[2026-11-25 10:00:00.000000] [0x00007f] [trace]   Initializing StaticPrintConfigs",
      "10 => Processing triangulated mesh",
      "90 => Exporting G-code to out.gcode",
      "Slicing result exported to out.gcode",
    ].join("\n");
    expect(unreliableOutput(output)).toBeNull();
  });

  it("treats any warning as unreliable (an open mesh slices with exit code 0 and wrong grams)", () => {
    expect(unreliableOutput("Empty layer between 4.2 and 4.4.")).toMatch(/Empty layer/);
    expect(unreliableOutput("[warning] Object could be damaged")).toMatch(/warning/);
  });
});
