/**
 * The custom-print quote: rates (an admin setting), the options a customer picks, and the price.
 * Pure and shared: the browser shows the price the moment a model is analysed, and the server
 * computes it again from its own analysis and the stored rates before anything is sold.
 *
 *   grams   = (surface area × wall thickness + interior volume × infill) × density
 *   hours   = extruded volume ÷ (flow rate × layer height ÷ 0.2 mm) + layers × layer change time
 *   unit    = max(minimum, setup fee + grams × price per gram + hours × hourly rate)
 *   price   = unit × (1 − volume discount for the quantity), per piece, × quantity
 *
 * A file of several separate bodies is priced body by body (each its own shell, layers, setup and
 * printer fit; the minimum once per piece), never by the bounding box around all of them.
 */

import { z } from "zod";
import { type CartLine, MAX_LINE_QUANTITY } from "./cart.ts";
import { CUSTOM_PART_CATEGORY, CUSTOM_PART_EXPIRED } from "./custom-part.ts";
import { isLengthUnit, LENGTH_UNITS, type LengthUnit, MM_PER_UNIT } from "./model3d/units.ts";
import { rupeesToPaise } from "./money.ts";
import { PRINT_SPEEDS, type PrintSpeed } from "./print-dates.ts";
import type { QuoteStatus, StoredGeometry } from "./stored-shapes.ts";

export { CUSTOM_PART_CATEGORY };
/** Above this (₹5,00,000) a custom order is priced by staff, never instantly. */
export const MAX_INSTANT_TOTAL_PAISE = 50_000_000;
export const LAYER_HEIGHTS = [0.12, 0.16, 0.2, 0.28] as const;
export const REFERENCE_LAYER_MM = 0.2;
/** Units a file without its own may be read in (app/rules/model3d/units.ts). */
export const QUOTE_UNITS = LENGTH_UNITS;

const paise = z.number().int().min(0).max(100_000_000);

export const materialSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,24}$/, "Use 2–24 lower-case letters, digits or dashes"),
  name: z.string().trim().min(1, "Name is required").max(40),
  /** g/cm³ */
  density: z.number().min(0.5, "Density looks wrong").max(10, "Density looks wrong"),
  pricePerGramPaise: paise,
  /** mm³ per second at a 0.2 mm layer */
  flowRate: z.number().min(1).max(100),
  colours: z.array(z.string().trim().min(1).max(30)).min(1, "Give at least one colour").max(24),
  enabled: z.boolean(),
  /** Thinnest wall this material prints reliably (mm); thinner walls go to staff. */
  minWallMm: z.number().min(0.1).max(10).default(0.8),
});
export type Material = z.infer<typeof materialSchema>;

/**
 * One of the shop's printers: its name (staff choose it when they record a print's time, and its
 * own print-time factor is learned under it), its build volume (mm) and how many alike it runs.
 */
export const printerSchema = z.object({
  name: z.string().trim().min(1).max(60),
  x: z.number().positive().max(5000),
  y: z.number().positive().max(5000),
  z: z.number().positive().max(5000),
  count: z.number().int().min(1).max(200).default(1),
});

/**
 * Rates saved before the printers had counts kept one `printerCount` for the whole shop: it
 * becomes the counts (one of each listed printer, the rest on the first), so the queue's
 * capacity stays what it was.
 */
function fromPrinterCount(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const { printerCount, ...rest } = raw as Record<string, unknown>;
  const printers = rest.printers;
  // Rates from before the counts: printers without a count of their own.
  const legacy =
    Array.isArray(printers) &&
    printers.every((p) => typeof p === "object" && p !== null && !("count" in p));
  if (!legacy) return "printerCount" in raw ? rest : raw;
  const extra =
    typeof printerCount === "number" ? Math.max(0, Math.floor(printerCount) - printers.length) : 0;
  // Names had no need to differ then ("Prusa MK4" twice); now each printer learns its own times
  // by name, so a repeated name becomes "Prusa MK4 (2)" rather than the rates being refused.
  const seen = new Map<string, number>();
  return {
    ...rest,
    printers: printers.map((p: Record<string, unknown>, i) => {
      const name = typeof p.name === "string" ? p.name.trim() : p.name;
      const key = typeof name === "string" ? name.toLowerCase() : "";
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return {
        ...p,
        ...(n > 1 && typeof name === "string" ? { name: `${name} (${n})` } : {}),
        count: 1 + (i === 0 ? extra : 0),
      };
    }),
  };
}

export const discountTierSchema = z.object({
  minQuantity: z.number().int().min(2).max(MAX_LINE_QUANTITY),
  percent: z.number().min(0).max(90),
});

export const quoteRatesSchema = z.preprocess(
  fromPrinterCount,
  z.object({
    materials: z
      .array(materialSchema)
      .min(1)
      .max(20)
      .refine((list) => list.some((m) => m.enabled), "Offer at least one material")
      .refine(
        (list) => new Set(list.map((m) => m.id)).size === list.length,
        "Each material needs its own code",
      ),
    setupFeePaise: paise,
    hourlyRatePaise: paise,
    minimumPaise: paise,
    wallThicknessMm: z.number().min(0.2).max(10),
    layerChangeSeconds: z.number().min(0).max(60),
    /** How densely support under overhangs is filled (percent of its volume). */
    supportInfillPercent: z.number().min(1).max(100).default(15),
    /**
     * The slicer's price replaces the instant one before payment only when they differ by more
     * than this (percent of the instant price; docs/decisions/0020).
     */
    slicerTolerancePercent: z.number().min(0).max(100).default(10),
    /** Sorted by minQuantity; the highest tier the quantity reaches applies. */
    discountTiers: z.array(discountTierSchema).max(10),
    holdDays: z.number().int().min(1).max(90),
    printers: z
      .array(printerSchema)
      .min(1)
      .max(20)
      .refine(
        (list) => new Set(list.map((p) => p.name.toLowerCase())).size === list.length,
        "Give each printer its own name",
      ),
    /** Express: printed ahead of the queue, for this surcharge (percent of the price). */
    expressPercent: z.number().min(0).max(300).default(40),
    /** The queue's capacity: each printer's printing hours per working day. */
    printHoursPerDay: z.number().min(1).max(24).default(16),
    /** The fewest working days before any part is ready. */
    minLeadDays: z.number().int().min(0).max(30).default(1),
  }),
);
export type QuoteRates = z.infer<typeof quoteRatesSchema>;

const RATE_FIELDS: Record<string, string> = {
  setupFeePaise: "Setup fee",
  hourlyRatePaise: "Machine rate",
  minimumPaise: "Minimum price",
  wallThicknessMm: "Wall thickness",
  layerChangeSeconds: "Layer change",
  supportInfillPercent: "Support fill",
  slicerTolerancePercent: "Slicer tolerance",
  minWallMm: "thinnest wall",
  holdDays: "Price held for",
  expressPercent: "Express surcharge",
  printHoursPerDay: "Printing hours per day",
  minLeadDays: "Shortest lead",
  minQuantity: "from pieces",
  percent: "discount",
  id: "code",
  name: "name",
  density: "density",
  pricePerGramPaise: "price",
  flowRate: "flow",
  colours: "colours",
  x: "X",
  y: "Y",
  z: "Z",
  count: "how many",
};
const LIST_NAMES: Record<string, string> = {
  materials: "Material",
  discountTiers: "Volume discount",
  printers: "Printer",
};

/**
 * What is wrong with the rates an admin sent, in the settings page's own words ("Setup fee: enter
 * a number.", "Volume discount 1, discount: at most 90."), first three problems.
 */
export function ratesProblemText(error: z.ZodError): string {
  const texts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String);
    const [list, index, field] = path;
    const where =
      list && LIST_NAMES[list]
        ? [
            index !== undefined ? `${LIST_NAMES[list]} ${Number(index) + 1}` : LIST_NAMES[list],
            field ? (RATE_FIELDS[field] ?? field) : null,
          ]
            .filter(Boolean)
            .join(", ")
        : (RATE_FIELDS[list ?? ""] ?? "Rates");
    const money = (path.at(-1) ?? "").endsWith("Paise");
    const amount = (n: unknown) => (money ? `₹${Number(n) / 100}` : String(n));
    // The schema's own words where it has them ("Use 2–24 lower-case letters…").
    let what = issue.message;
    if (issue.code === "invalid_type") {
      what = issue.expected === "int" ? "enter a whole number" : "enter a number";
    } else if (issue.code === "too_big") {
      what = `${issue.inclusive === false ? "less than" : "at most"} ${amount(issue.maximum)}`;
    } else if (issue.code === "too_small") {
      what = `${issue.inclusive === false ? "more than" : "at least"} ${amount(issue.minimum)}`;
    }
    return `${where}: ${what.replace(/\.$/, "")}.`;
  });
  return texts.join(" ") || "Check the rates.";
}

/**
 * Rupees as an admin typed them on the settings page ("150", "2.50", "-10") to paise; anything
 * that is not a number is NaN, which the schema refuses with "enter a number". A negative amount
 * is a number: it goes to the schema too, whose answer is "at least ₹0" (it was once "enter a
 * number", as if -10 were not one).
 */
export function typedRupeesToPaise(typed: string): number {
  return /^-?\d{1,7}(\.\d{1,2})?$/.test(typed.trim()) ? rupeesToPaise(typed) : Number.NaN;
}

/** Two volume discounts starting at the same quantity (the larger would silently win). */
export function duplicateTierText(tiers: QuoteRates["discountTiers"]): string | null {
  const seen = new Set<number>();
  for (const t of tiers) {
    if (seen.has(t.minQuantity)) {
      return `Two volume discounts start at ${t.minQuantity} pieces: keep one.`;
    }
    seen.add(t.minQuantity);
  }
  return null;
}

export const defaultQuoteRates: QuoteRates = {
  materials: [
    {
      id: "pla",
      name: "PLA",
      density: 1.24,
      pricePerGramPaise: 300,
      flowRate: 12,
      colours: ["Black", "White", "Grey", "Red", "Blue", "Green", "Orange"],
      enabled: true,
      minWallMm: 0.8,
    },
    {
      id: "petg",
      name: "PETG",
      density: 1.27,
      pricePerGramPaise: 400,
      flowRate: 10,
      colours: ["Black", "White", "Clear", "Blue"],
      enabled: true,
      minWallMm: 0.8,
    },
    {
      id: "tpu",
      name: "TPU (flexible)",
      density: 1.21,
      pricePerGramPaise: 700,
      flowRate: 4,
      colours: ["Black", "White"],
      enabled: true,
      minWallMm: 1.2,
    },
    {
      id: "silk-pla",
      name: "Silk PLA",
      density: 1.24,
      pricePerGramPaise: 500,
      flowRate: 10,
      colours: ["Gold", "Silver", "Copper"],
      enabled: true,
      minWallMm: 0.8,
    },
  ],
  setupFeePaise: 15000,
  hourlyRatePaise: 6000,
  minimumPaise: 50000,
  wallThicknessMm: 1.2,
  layerChangeSeconds: 1,
  supportInfillPercent: 15,
  slicerTolerancePercent: 10,
  discountTiers: [
    { minQuantity: 10, percent: 10 },
    { minQuantity: 25, percent: 15 },
    { minQuantity: 50, percent: 20 },
  ],
  holdDays: 14,
  printers: [
    { name: "Bambu Lab X1 Carbon", x: 256, y: 256, z: 256, count: 1 },
    { name: "Creality K1 Max", x: 300, y: 300, z: 300, count: 1 },
  ],
  expressPercent: 40,
  printHoursPerDay: 16,
  minLeadDays: 1,
};

/** What the customer chooses. Defaults: PLA, 20 % infill, 0.2 mm layers, one piece, mm, 100 %. */
export const quoteOptionsSchema = z.object({
  materialId: z.string().trim().min(1, "Choose a material").max(24),
  colour: z.string().trim().min(1, "Choose a colour").max(30),
  infillPercent: z.coerce
    .number("Infill must be a number")
    .int("Infill must be a whole number")
    .min(5, "Infill must be between 5% and 100%")
    .max(100, "Infill must be between 5% and 100%"),
  layerHeight: z.coerce
    .number()
    .refine((v) => (LAYER_HEIGHTS as readonly number[]).includes(v), "Choose a layer height"),
  quantity: z.coerce
    .number("Quantity must be a number")
    .int("Quantity must be a whole number")
    .min(1, "Quantity must be at least 1")
    .max(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`),
  unit: z.enum(QUOTE_UNITS, "Choose a unit"),
  scalePercent: z.coerce
    .number("Scale must be a number")
    .min(1, "Scale must be between 1% and 1000%")
    .max(1000, "Scale must be between 1% and 1000%"),
  /** Standard waits its turn; Express is printed first, for the rates' surcharge. */
  speed: z.enum(PRINT_SPEEDS, "Choose Standard or Express").default("standard"),
});
/** Speed may be left out (quotes priced before Express were Standard). */
export type QuoteOptions = Omit<z.infer<typeof quoteOptionsSchema>, "speed"> & {
  speed?: PrintSpeed;
};

/** The model's measurements as read from the file (its own coordinates, before unit or scale). */
export interface RawGeometry {
  volume: number;
  area: number;
  size: { x: number; y: number; z: number };
  watertight: boolean;
  /** Shells facing opposite ways: the signed volume can't be trusted for an instant price. */
  mixedShells?: boolean;
  /**
   * The unit the measurements are in when the file states one (a 3MF, read into millimetres):
   * then the customer's unit choice does not apply. Null or absent: the customer chooses.
   */
  fileUnit?: string | null;
  /** Separate bodies in the file; with `bodies`, each priced as a part of its own. */
  bodyCount?: number;
  bodies?: ReadonlyArray<{
    volume: number;
    area: number;
    size: { x: number; y: number; z: number };
  }>;
  /** Overhangs and wall thickness in the file's own units (absent on older quotes: none). */
  printability?: {
    supportVolume: number;
    walls: ReadonlyArray<readonly [number, number]>;
    wallArea: number;
  };
}

/** Below the minimum by more than float rounding (a 0.4 mm wall measures 0.39999998). */
function tooThin(wallMm: number | null, minWallMm: number): boolean {
  return wallMm !== null && wallMm < minWallMm * (1 - 1e-6);
}

/** A thin wall counts when it covers at least this share of the surface. */
const THIN_WALL_SHARE = 0.005;

/**
 * The thinnest wall that matters (at least 0.5 % of the surface), in mm at this unit and scale;
 * null when nothing was measured.
 */
export function thinnestWallMm(
  printability: RawGeometry["printability"],
  mmPerUnit: number,
): number | null {
  if (!printability || !(printability.wallArea > 0)) return null;
  for (const [thickness, area] of printability.walls) {
    if (area >= printability.wallArea * THIN_WALL_SHARE) return thickness * mmPerUnit;
  }
  return null;
}

/** The unit a quote is priced in: the file's own when it states one, else the customer's. */
export function pricedUnit(geometry: Pick<RawGeometry, "fileUnit">, chosen: LengthUnit) {
  return isLengthUnit(geometry.fileUnit) ? geometry.fileUnit : chosen;
}

export interface PrinterFit {
  fits: boolean;
  printers: string[];
}

/** Printers whose build volume holds a part of this size in some axis-aligned orientation. */
export function printersThatFit(
  size: { x: number; y: number; z: number },
  printers: ReadonlyArray<{ name: string; x: number; y: number; z: number }>,
): string[] {
  const part = [size.x, size.y, size.z].sort((a, b) => a - b);
  return printers
    .filter((p) => {
      const box = [p.x, p.y, p.z].sort((a, b) => a - b);
      return part.every((d, i) => d <= box[i] + 1e-9);
    })
    .map((p) => p.name);
}

/** What a slicer worked out for one piece (its support share, when it could tell). */
export interface SlicedEstimate {
  grams: number;
  supportGrams: number | null;
  printMinutes: number;
}

export interface QuoteBreakdown {
  /** The unit the file was read in (its own, or the customer's choice). */
  unit: LengthUnit;
  /** Separate bodies priced, each as a part of its own (setup, layers, fit). */
  bodies: number;
  /** Of `grams`, the support under overhangs (0 when none is needed). */
  supportGrams: number;
  /** The thinnest wall that matters, in mm (null: not measured), and the material's minimum. */
  thinnestWallMm: number | null;
  minWallMm: number;
  /** Too large: the largest scale (%) at which it fits a printer, and that printer; else null. */
  fitScalePercent: number | null;
  fitPrinter: string | null;
  mmPerUnit: number;
  size: { x: number; y: number; z: number };
  volumeMm3: number;
  areaMm2: number;
  grams: number;
  printHours: number;
  setupPaise: number;
  materialPaise: number;
  machinePaise: number;
  /** Before the minimum and the discount. */
  basePaise: number;
  minimumApplied: boolean;
  discountPercent: number;
  speed: PrintSpeed;
  /** Of the unit price, the Express surcharge (0 for Standard). */
  expressPaise: number;
  unitPricePaise: number;
  quantity: number;
  totalPaise: number;
  fitsPrinters: string[];
}

export type QuoteProblem =
  | "material-unavailable"
  | "colour-unavailable"
  | "too-large"
  | "not-watertight"
  | "mixed-shells"
  | "too-expensive"
  | "too-many-bodies"
  | "thin-walls"
  | "empty";

export const quoteProblemText: Record<QuoteProblem, string> = {
  "material-unavailable": "This material is not available. Please choose another.",
  "colour-unavailable": "This colour is not available for the chosen material.",
  "too-large": "This part is larger than our printers can make. Scale it down or request a review.",
  "not-watertight":
    "This model has open or non-manifold edges, so it can't be priced instantly. Repair it or request a review.",
  empty: "This model has no volume to print.",
  "mixed-shells":
    "Parts of this model face opposite ways (a hidden cavity, or a part turned inside out), so it can't be priced instantly. Request a review.",
  "too-many-bodies":
    "This file holds more than 100 separate bodies, too many to price one by one. Join them into fewer parts or request a review.",
  "thin-walls":
    "Some walls are thinner than this material can print. Thicken them, scale the model up, choose another material or request a review.",
  "too-expensive":
    "An order this large needs a personal quote. Lower the quantity or size, or request a review.",
};

export function discountPercentFor(quantity: number, tiers: QuoteRates["discountTiers"]): number {
  let percent = 0;
  for (const t of tiers) if (quantity >= t.minQuantity && t.percent > percent) percent = t.percent;
  return percent;
}

/**
 * The price of `options` for a model with these raw measurements. Returns the breakdown, and the
 * problems that stop an instant order (the breakdown is still filled in, for the customer to see).
 */
export function priceQuote(
  geometry: RawGeometry,
  options: QuoteOptions,
  rates: QuoteRates,
  /** The slicer's figures for one piece, in place of the estimate (docs/decisions/0020). */
  sliced?: SlicedEstimate | null,
): { breakdown: QuoteBreakdown; problems: QuoteProblem[] } {
  const problems: QuoteProblem[] = [];
  const material = rates.materials.find((m) => m.id === options.materialId && m.enabled);
  if (!material) problems.push("material-unavailable");
  else if (!material.colours.includes(options.colour)) problems.push("colour-unavailable");
  const m = material ?? rates.materials.find((x) => x.enabled) ?? rates.materials[0];

  const unit = pricedUnit(geometry, options.unit);
  const f = MM_PER_UNIT[unit] * (options.scalePercent / 100);
  const size = { x: geometry.size.x * f, y: geometry.size.y * f, z: geometry.size.z * f };
  // Several bodies: each is a part of its own (its own layers, fit and handling), never the
  // bounding box of all of them.
  const bodyCount = Math.max(1, geometry.bodyCount ?? 1);
  const bodies =
    bodyCount > 1 && geometry.bodies && geometry.bodies.length === bodyCount
      ? geometry.bodies
      : [geometry];
  if (bodyCount > 1 && bodies.length !== bodyCount && !geometry.mixedShells) {
    problems.push("too-many-bodies");
  }
  let volumeMm3 = 0;
  let areaMm2 = 0;
  let extruded = 0;
  let layerSeconds = 0;
  let fitsPrinters = rates.printers.map((p) => p.name);
  // How far each printer's volume holds every body (1 = just fits), for "scale it to …".
  const room = rates.printers.map(() => Number.POSITIVE_INFINITY);
  for (const body of bodies) {
    const volume = Math.abs(body.volume) * f ** 3;
    const area = body.area * f ** 2;
    const shell = Math.min(area * rates.wallThicknessMm, volume);
    const interior = volume - shell;
    volumeMm3 += volume;
    areaMm2 += area;
    extruded += shell + interior * (options.infillPercent / 100);
    layerSeconds += Math.ceil((body.size.z * f) / options.layerHeight) * rates.layerChangeSeconds;
    const fits = printersThatFit(
      { x: body.size.x * f, y: body.size.y * f, z: body.size.z * f },
      rates.printers,
    );
    fitsPrinters = fitsPrinters.filter((name) => fits.includes(name));
    const part = [body.size.x * f, body.size.y * f, body.size.z * f].sort((a, b) => a - b);
    rates.printers.forEach((printer, i) => {
      const bed = [printer.x, printer.y, printer.z].sort((a, b) => a - b);
      for (let k = 0; k < 3; k++) if (part[k] > 0) room[i] = Math.min(room[i], bed[k] / part[k]);
    });
  }
  const roomiest = room.indexOf(Math.max(...room));
  const fitScalePercent =
    fitsPrinters.length === 0 && roomiest >= 0 && Number.isFinite(room[roomiest])
      ? Math.floor(options.scalePercent * room[roomiest])
      : null;
  if (!(volumeMm3 > 0)) problems.push("empty");
  if (!geometry.watertight) problems.push("not-watertight");
  else if (geometry.mixedShells) problems.push("mixed-shells");
  if (fitsPrinters.length === 0) problems.push("too-large");

  // Support under overhangs, filled at the rates' support fill: material and time.
  const supportMm3 =
    ((geometry.printability?.supportVolume ?? 0) * f ** 3 * rates.supportInfillPercent) / 100;
  extruded += supportMm3;
  const thinnest = thinnestWallMm(geometry.printability, f);
  if (tooThin(thinnest, m.minWallMm)) problems.push("thin-walls");

  const flow = m.flowRate * (options.layerHeight / REFERENCE_LAYER_MM);
  const grams = sliced ? sliced.grams : (extruded / 1000) * m.density;
  const printHours = sliced ? sliced.printMinutes / 60 : (extruded / flow + layerSeconds) / 3600;
  const supportGrams = sliced
    ? (sliced.supportGrams ?? (supportMm3 / 1000) * m.density)
    : (supportMm3 / 1000) * m.density;

  const setupPaise = rates.setupFeePaise * bodies.length;
  const materialPaise = Math.round(grams * m.pricePerGramPaise);
  const machinePaise = Math.round(printHours * rates.hourlyRatePaise);
  const basePaise = setupPaise + materialPaise + machinePaise;
  const minimumApplied = basePaise < rates.minimumPaise;
  const discountPercent = discountPercentFor(options.quantity, rates.discountTiers);
  const standardPaise = Math.round(
    Math.max(rates.minimumPaise, basePaise) * (1 - discountPercent / 100),
  );
  const speed = options.speed ?? "standard";
  const unitPricePaise =
    speed === "express"
      ? Math.round(standardPaise * (1 + rates.expressPercent / 100))
      : standardPaise;
  if (unitPricePaise * options.quantity > MAX_INSTANT_TOTAL_PAISE) problems.push("too-expensive");
  return {
    breakdown: {
      unit,
      bodies: bodyCount,
      supportGrams,
      thinnestWallMm: thinnest,
      minWallMm: m.minWallMm,
      fitScalePercent,
      fitPrinter: fitScalePercent !== null ? rates.printers[roomiest].name : null,
      mmPerUnit: f,
      size,
      volumeMm3,
      areaMm2,
      grams,
      printHours,
      setupPaise,
      materialPaise,
      machinePaise,
      basePaise,
      minimumApplied,
      discountPercent,
      speed,
      expressPaise: unitPricePaise - standardPaise,
      unitPricePaise,
      quantity: options.quantity,
      totalPaise: unitPricePaise * options.quantity,
      fitsPrinters,
    },
    problems,
  };
}

/**
 * What the quote says about a file of several bodies ("This file holds 2 separate bodies, each
 * priced as a part of its own: 10 × 10 × 10 mm and 5 × 5 × 5 mm."); null for one body.
 */
export function bodiesText(count: number, sizesMm: ReadonlyArray<string>): string | null {
  if (count <= 1) return null;
  const shown = sizesMm.slice(0, 5);
  const list =
    shown.length > 1
      ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}${sizesMm.length > shown.length ? ` (and ${sizesMm.length - shown.length} more)` : ""}`
      : (shown[0] ?? "");
  return list
    ? `This file holds ${count} separate bodies, each priced as a part of its own: ${list}.`
    : `This file holds ${count} separate bodies.`;
}

/**
 * What would fix thin walls, in numbers: "Walls as thin as 0.4 mm: PLA needs at least 0.8 mm.
 * Thicken them to 0.8 mm, or scale the model to 200 % or more." Null when the walls are fine.
 */
export function thinWallFixText(
  breakdown: Pick<QuoteBreakdown, "thinnestWallMm" | "minWallMm">,
  materialName: string,
  scalePercent: number,
): string | null {
  const wall = breakdown.thinnestWallMm;
  if (wall === null || !tooThin(wall, breakdown.minWallMm)) return null;
  const mm = (v: number) => `${Number(v.toFixed(2))} mm`;
  const scaleTo = Math.ceil((scalePercent * breakdown.minWallMm) / Math.max(wall, 1e-9) - 1e-6);
  const scale =
    scaleTo <= 1000 ? `, or scale the model to ${scaleTo.toLocaleString("en-IN")} % or more` : "";
  return `Walls as thin as ${mm(wall)}: ${materialName} needs at least ${mm(breakdown.minWallMm)}. Thicken them to ${mm(breakdown.minWallMm)}${scale}.`;
}

/** Walls thinner than this many times the material's minimum are pointed out to staff. */
const NEAR_MIN_WALL = 1.5;

/**
 * The printability findings staff see in the review queue, for the options the customer chose
 * (or the defaults): thin walls against the material's minimum (and walls close to it), support,
 * and the side it is printed on. Empty for a quote made before the checks.
 */
export function staffFindings(
  geometry: RawGeometry & { printability?: { down?: { z: number }; overhangArea?: number } },
  options: QuoteOptions | null,
  rates: QuoteRates,
): string[] {
  const p = geometry.printability;
  if (!p) return [];
  const chosen = options ?? defaultQuoteOptions(rates);
  const { breakdown } = priceQuote(geometry, chosen, rates);
  const material = rates.materials.find((m) => m.id === chosen.materialId);
  const name = material?.name ?? chosen.materialId;
  const mm = (v: number) => `${Number(v.toFixed(2))} mm`;
  const out: string[] = [];
  const wall = breakdown.thinnestWallMm;
  if (wall !== null && tooThin(wall, breakdown.minWallMm)) {
    out.push(`Walls as thin as ${mm(wall)} (${name} needs ${mm(breakdown.minWallMm)})`);
  } else if (wall !== null && wall < breakdown.minWallMm * NEAR_MIN_WALL) {
    // Printable, but close to the limit: staff handle it with care (a part scaled up to pass).
    out.push(
      `Walls near the minimum: ${mm(wall)} at the thinnest (${name} needs ${mm(breakdown.minWallMm)})`,
    );
  }
  if (breakdown.supportGrams > 0) {
    const area = (p.overhangArea ?? 0) * breakdown.mmPerUnit ** 2;
    out.push(
      `Needs support: about ${Number(breakdown.supportGrams.toFixed(1))} g under ${Math.round(area).toLocaleString("en-IN")} mm² of overhangs`,
    );
  }
  if (p.down && p.down.z > -0.99999) out.push("Printed turned onto its largest flat face");
  if (out.length === 0) out.push("Walls and overhangs fine");
  return out;
}

/** What would fix a part too large: "At 79 % or less it fits the Creality K1 Max." */
export function tooLargeFixText(
  breakdown: Pick<QuoteBreakdown, "fitScalePercent" | "fitPrinter">,
): string | null {
  if (breakdown.fitScalePercent === null || breakdown.fitPrinter === null) return null;
  if (breakdown.fitScalePercent < 1) return null;
  return `At ${breakdown.fitScalePercent} % or less it fits the ${breakdown.fitPrinter}.`;
}

/** The line name a custom part carries in the cart, the order and the invoice. */
export function customPartName(
  fileName: string,
  materialName: string,
  colour: string,
  speed: PrintSpeed = "standard",
) {
  const base = fileName.replace(/\.[^.]+$/, "").slice(0, 60) || "model";
  return `Custom print: ${base} (${materialName}, ${colour}${speed === "express" ? ", Express" : ""})`;
}

export const defaultQuoteOptions = (rates: QuoteRates): QuoteOptions => {
  const material = rates.materials.find((m) => m.enabled) ?? rates.materials[0];
  return {
    materialId: material.id,
    colour: material.colours[0],
    infillPercent: 20,
    layerHeight: 0.2,
    quantity: 1,
    unit: "mm",
    scalePercent: 100,
    speed: "standard",
  };
};

export const quoteText = {
  signInToOrder: "Sign in to order this part",
  expired: CUSTOM_PART_EXPIRED,
  reviewRequested:
    "Thanks! Our team will review your model and reply by e-mail within 1–2 business days.",
  added: "Custom part added to your cart",
  quantityLocked: "The quantity of a custom part is set on its quote.",
  notFound: "Quote not found",
} as const;

/** The words of a project of several parts on the quote page. */
export const projectText = {
  added: (parts: number) =>
    parts === 1 ? quoteText.added : `${parts} custom parts added to your cart`,
  addButton: (parts: number) => (parts === 1 ? "Add to cart" : `Add ${parts} parts to cart`),
  signIn: (parts: number) =>
    parts === 1 ? quoteText.signInToOrder : "Sign in to order these parts",
  splitOffer: (bodies: number) =>
    `This file holds ${bodies} separate bodies. Split it into ${bodies} parts to choose a material, colour and quantity for each.`,
  splitButton: (bodies: number) => `Split into ${bodies} parts`,
  /** In place of the price of a part the server refused, or one that can't be made as it is. */
  notUploaded: "No price: this file wasn't uploaded. Try again or remove it.",
  unpriced: "No price: this part can't be made as it is. See below what would fix it.",
  /** The parts left out of the project's total, after it: "1 part not uploaded". */
  leftOut: (notUploaded: number, unpriced: number) =>
    [
      notUploaded > 0 ? `${partsWord(notUploaded)} not uploaded` : null,
      unpriced > 0 ? `${partsWord(unpriced)} can't be priced` : null,
    ]
      .filter(Boolean)
      .join(" · "),
  /** Why the add button is greyed out, said next to it. */
  fixFirst: (parts: number, notUploaded: number) =>
    parts > 1
      ? "Remove or fix the parts that need attention to add the project to your cart."
      : notUploaded > 0
        ? "This part isn't uploaded: try again or remove it to add it to your cart."
        : "This part can't be priced as it is: change it, ask for a review or remove it.",
  waitingFor: (parts: number) => `Waiting for ${partsWord(parts)} to upload…`,
  reading: "Reading your files…",
} as const;

/** "1 part", "3 parts". */
function partsWord(n: number) {
  return `${n} ${n === 1 ? "part" : "parts"}`;
}

export const quoteStatusLabel: Record<string, string> = {
  draft: "Not ordered",
  in_cart: "In cart",
  review_requested: "Review requested",
  offered: "Offer ready",
  ordered: "Ordered",
  closed: "Closed",
};

/** Material, colour, infill and layer height in one line ("PLA · Black · 20% infill · 0.2 mm"). */
export function describeOptions(options: QuoteOptions, materialName: string): string {
  const express = options.speed === "express" ? " · Express" : "";
  return `${materialName} · ${options.colour} · ${options.infillPercent}% infill · ${options.layerHeight} mm layers${express}`;
}

/** Bytes as people read them: "1.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The admin list's tabs: "open" = review requests waiting for staff. */
export const adminQuoteFilters = [
  "open",
  "all",
  "offered",
  "in_cart",
  "ordered",
  "closed",
  "draft",
] as const;

export type QuoteSummary = {
  id: string;
  fileName: string;
  fileBytes: number;
  geometry: StoredGeometry;
  status: QuoteStatus;
  options: QuoteOptions | null;
  unitPricePaise: number | null;
  quantity: number | null;
  expiresAt: string | null;
  customerNote: string | null;
  staffReply: string | null;
  staffPriced: boolean;
  productId: string | null;
  orderId: string | null;
  createdAt: string;
  /** Estimated minutes of printing for every piece, as priced (null: not priced yet). */
  printMinutes: number | null;
  /** The day the part is ready to hand over (India), as last promised. */
  readyBy: string | null;
  /** Staff's note when they re-priced the part, or the slicer's when its figures did. */
  priceNote: string | null;
  /** Who changed the price (decision 0020). */
  priceNoteBy: "staff" | "slicer";
  actualPrintMinutes: number | null;
  printedAt: string | null;
  printedOn: string | null;
};

/** What the custom-printing page's action answers (its fetchers read it). */
export type QuoteActionResult =
  | {
      ok: true;
      intent: "add-to-cart" | "accept-offer";
      line: Omit<CartLine, "addedAt">;
    }
  | { ok: true; intent: "add-project"; lines: Array<Omit<CartLine, "addedAt">> }
  | { ok: true; intent: "request-review" }
  | { ok: false; error: string; fieldErrors?: Record<string, string | undefined> };
