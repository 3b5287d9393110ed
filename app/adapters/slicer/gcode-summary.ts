/*
 * PrusaSlicer writes its estimates as comments in the G-code (the way its maintainers point to,
 * rather than stdout):
 *
 *   ; filament used [mm] = 1504.88
 *   ; filament used [g] = 4.49
 *   ; estimated printing time (normal mode) = 1d 2h 19m 12s
 *
 * Support material is not summed there: with relative extrusion (`--use-relative-e-distances`)
 * the filament pushed inside `;TYPE:Support material…` sections is added up, and its share of the
 * filament length gives its share of the grams.
 *
 * The skirt or brim (`;TYPE:Skirt/Brim`) is material the shop spends once per plate, not per part,
 * and the instant estimate has none: its share is taken out of the part's grams (decision 0020,
 * amended). The profiles print none; one that does still gives the part's own grams.
 */

export type GcodeSummary = {
  grams: number;
  supportGrams: number | null;
  printSeconds: number;
};

/** "1d 2h 19m 12s" (any of the parts may be missing) → seconds; null when it isn't a duration. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+d\s*)?(\d+h\s*)?(\d+m\s*)?(\d+s)?$/.test(trimmed) || trimmed === "") return null;
  const unit = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;
  let seconds = 0;
  for (const [, n, u] of trimmed.matchAll(/(\d+)([dhms])/g)) {
    seconds += Number(n) * unit[u as keyof typeof unit];
  }
  return seconds;
}

/** Reads the summary line by line (a large part's G-code runs to many megabytes). */
export class GcodeSummaryReader {
  #inSupport = false;
  #supportMm = 0;
  #inSkirt = false;
  #skirtMm = 0;
  #sawSupport = false;
  #filamentMm: number | null = null;
  #grams: number | null = null;
  #seconds: number | null = null;

  line(raw: string): void {
    const line = raw.trimEnd();
    if (line.startsWith(";TYPE:")) {
      this.#inSupport = line.startsWith(";TYPE:Support material");
      if (this.#inSupport) this.#sawSupport = true;
      this.#inSkirt = /^;TYPE:(Skirt|Brim)/.test(line);
      return;
    }
    if (line.startsWith("G1 ") && (this.#inSupport || this.#inSkirt)) {
      const e = /\sE(-?\d*\.?\d+)/.exec(line);
      if (e && this.#inSupport) this.#supportMm += Number(e[1]);
      else if (e) this.#skirtMm += Number(e[1]);
      return;
    }
    if (!line.startsWith("; ")) return;
    const eq = line.indexOf(" = ");
    if (eq < 0) return;
    const key = line.slice(2, eq);
    const value = line.slice(eq + 3);
    // One extruder: a single number (several would be comma-separated: added up).
    const total = () => value.split(",").reduce((sum, v) => sum + Number(v.trim()), 0 as number);
    if (key === "filament used [mm]") this.#filamentMm = total();
    else if (key === "filament used [g]") this.#grams = total();
    else if (key === "estimated printing time (normal mode)") this.#seconds = parseDuration(value);
  }

  /** The figures, or null when the G-code lacks them (an aborted or unexpected file). */
  result(): GcodeSummary | null {
    const total = this.#grams;
    const seconds = this.#seconds;
    if (total === null || seconds === null || !Number.isFinite(total) || !(total > 0)) return null;
    const mm = this.#filamentMm;
    const perMm = mm !== null && mm > 0 && Number.isFinite(mm) ? total / mm : null;
    // The part's own grams: the skirt's share out (all of it when the length isn't given).
    const skirt = this.#skirtMm > 0 ? (perMm === null ? null : perMm * this.#skirtMm) : 0;
    if (skirt === null) return null;
    const grams = total - Math.min(total, Math.max(0, skirt));
    if (!(grams > 0)) return null;
    let supportGrams: number | null = 0;
    if (this.#sawSupport) {
      supportGrams = perMm === null ? null : Math.min(grams, Math.max(0, perMm * this.#supportMm));
    }
    return { grams, supportGrams, printSeconds: seconds };
  }
}

/** The whole G-code at once (tests, small files). */
export function parseGcodeSummary(gcode: string): GcodeSummary | null {
  const reader = new GcodeSummaryReader();
  for (const line of gcode.split("\n")) reader.line(line);
  return reader.result();
}

/**
 * Whether PrusaSlicer's console output says the result can't be trusted: an open mesh may slice
 * with exit code 0 but warn ("Empty layer between …") and give wrong grams. The `[trace]` line it
 * prints on every run is not a warning.
 */
export function unreliableOutput(output: string): string | null {
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    if (line === "" || /\[trace\]/.test(line)) continue;
    if (/warning|empty layer/i.test(line)) return line.slice(0, 300);
  }
  return null;
}
