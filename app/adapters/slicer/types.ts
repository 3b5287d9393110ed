/*
 * A slicer turns one part (a closed mesh in millimetres, laid as it will print) into what printing
 * it really takes (docs/decisions/0020). One interface; PrusaSlicer's command line or none.
 */

/** What the slicer is told about the part and how it is to be printed. */
export type SliceRequest = {
  /** The part as a binary STL, in millimetres, oriented as printed. */
  stl: Uint8Array;
  /** The material's profile (profiles/<id>.ini; an unknown material gets the generic one). */
  materialId: string;
  /** g/cm³, from the shop's rates (the profile's own is overridden by it). */
  density: number;
  layerHeightMm: number;
  infillPercent: number;
  /** Support under overhangs, when the quote engine found that the part needs it. */
  supports: boolean;
  /** The printer's bed (mm), so a large part is never refused for a default 200 mm bed. */
  bed: { x: number; y: number };
};

/** The slicer's figures for one piece. */
export type SlicedFigures = {
  grams: number;
  /** Of `grams`, the support material; null when the slicer's output doesn't say. */
  supportGrams: number | null;
  printSeconds: number;
};

export type SliceFailure = {
  /**
   * timeout: killed at the time limit; failed: an error or exit code; unreliable: it warned;
   * stopped: killed because the shop is shutting down (worth trying again later).
   */
  reason: "timeout" | "failed" | "unreliable" | "stopped";
  message: string;
};

export type SliceResult = ({ ok: true } & SlicedFigures) | ({ ok: false } & SliceFailure);

export type Slicer = {
  /** "prusa-slicer", or "none" when it isn't installed or is turned off. */
  readonly name: "prusa-slicer" | "none";
  /** Slices one part within the time and memory limits; never throws for a bad model. */
  slice(request: SliceRequest): Promise<SliceResult>;
  /**
   * The shop is shutting down: kills every slicer process it started (their whole process
   * groups), whose slices then answer `stopped`, and starts no more.
   */
  stop(): void;
};
