/**
 * Shared types of the model analysis (quote engine). Pure: used in the browser (a Web Worker),
 * on the server (the authority for price) and by the 3D preview.
 */

import type { LengthUnit } from "./units.ts";

export type ModelFormat = "stl" | "obj" | "3mf" | "ply";

/** Length unit a file's coordinates are read in. 3MF carries its own unit; the others do not. */
export type { LengthUnit };

/**
 * An indexed triangle mesh in the file's own coordinates (not yet converted to millimetres).
 * `positions` holds x,y,z per vertex; `indices` holds three vertex numbers per triangle, in the
 * file's winding order (counter-clockwise seen from outside for a correctly oriented solid).
 * Vertices with bit-identical coordinates are welded into one, so edges can be matched.
 */
export interface Mesh {
  positions: Float32Array;
  indices: Uint32Array;
}

export interface ParsedModel {
  format: ModelFormat;
  /** Set only when the file states its unit (3MF); otherwise the customer chooses. */
  fileUnit: LengthUnit | null;
  mesh: Mesh;
  /** A 3MF with several build items: the triangle number where each item starts. */
  objectStarts?: number[];
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** One separate body of a model: volume, area, size and triangles. */
export interface BodyMeasure {
  volume: number;
  area: number;
  size: Vec3;
  triangles: number;
}

export interface BuildVolume {
  /** Printer name shown to the customer, e.g. "Bambu Lab X1C". */
  name: string;
  /** Usable build volume in millimetres. */
  x: number;
  y: number;
  z: number;
}

export interface ModelAnalysis {
  format: ModelFormat;
  /** Unit the coordinates were read in, and the uniform scale applied on top (1 = as drawn). */
  unit: LengthUnit;
  scale: number;
  triangles: number;
  vertices: number;
  /** Millimetres, after unit and scale. */
  bboxMin: Vec3;
  bboxMax: Vec3;
  size: Vec3;
  /** mm³ (absolute value of the signed-tetrahedra sum) and mm². */
  volume: number;
  area: number;
  /** Every edge shared by exactly two triangles with opposite directions. */
  watertight: boolean;
  /** Edges used by one triangle only. */
  openEdges: number;
  /**
   * Edges used by more than two triangles, or by two triangles in the same direction (one of the
   * two is flipped; these are also counted in `inconsistentEdges`).
   */
  nonManifoldEdges: number;
  /** Of `nonManifoldEdges`, those used by exactly two triangles in the same direction. */
  inconsistentEdges?: number;
  /** Signed volume negative: the normals (winding) likely point inwards. */
  invertedNormals: boolean;
  /**
   * Some shells face outwards and some inwards (a cavity, or a part turned inside out beside
   * another): the volume can't be trusted without a person looking at it.
   */
  mixedShells?: boolean;
  /** Separate bodies (shells) in the file. */
  bodyCount: number;
  /** Each body, largest first, when there are 2 to MAX_LISTED_BODIES (mm, after unit and scale). */
  bodies: BodyMeasure[];
  /** Printers whose build volume holds the part in some axis-aligned orientation. */
  fitsPrinters: string[];
}

/** A file that cannot be read: `message` is shown to the customer as it is. */
export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelError";
  }
}
