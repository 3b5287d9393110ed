/**
 * The quote engine's model reader: which files are accepted, parseModel (any supported format to
 * a welded triangle mesh, or a ModelError with the customer's message) and the analysis API.
 * Pure: runs in the browser's Web Worker and on the server alike.
 */
import {
  FILE_TOO_LARGE_MESSAGE,
  NO_TRIANGLES_MESSAGE,
  TOO_MANY_TRIANGLES_MESSAGE,
  UNSUPPORTED_FILE_MESSAGE,
} from "./messages.ts";
import { parseObj } from "./obj.ts";
import { parsePly } from "./ply.ts";
import { parseStl } from "./stl.ts";
import { parse3mf } from "./threemf.ts";
import { type Mesh, ModelError, type ModelFormat, type ParsedModel } from "./types.ts";

export const MAX_MODEL_BYTES = 100 * 1024 * 1024;
export const MAX_TRIANGLES = 2_000_000;
/** For `<input accept>` and upload checks (lower case, with the dot). */
export const ACCEPTED_EXTENSIONS: readonly string[] = [".stl", ".obj", ".3mf", ".ply"];

/** The format a file name's extension says (case-insensitive), or null. */
export function detectFormat(fileName: string): ModelFormat | null {
  const match = /\.([a-z0-9]+)$/i.exec(fileName.trim());
  const extension = match?.[1].toLowerCase();
  return extension === "stl" || extension === "obj" || extension === "3mf" || extension === "ply"
    ? extension
    : null;
}

export interface ParseOptions {
  /** Most triangles accepted (default MAX_TRIANGLES); lower it to test the limit cheaply. */
  maxTriangles?: number;
  /** Largest file accepted, in bytes (default MAX_MODEL_BYTES). */
  maxBytes?: number;
}

/**
 * Reads a model file into a welded mesh. Throws ModelError (with the text to show the customer)
 * for an unsupported name, a file over the size or triangle limit, a damaged file or one without
 * triangles; never anything else for any bytes.
 */
export function parseModel(
  bytes: Uint8Array,
  fileName: string,
  options: ParseOptions = {},
): ParsedModel {
  const format = detectFormat(fileName);
  if (!format) throw new ModelError(UNSUPPORTED_FILE_MESSAGE);
  if (bytes.byteLength > (options.maxBytes ?? MAX_MODEL_BYTES)) {
    throw new ModelError(FILE_TOO_LARGE_MESSAGE);
  }
  const maxTriangles = options.maxTriangles ?? MAX_TRIANGLES;
  let mesh: Mesh;
  const objectStarts: number[] = [];
  try {
    mesh =
      format === "3mf"
        ? parse3mf(bytes, maxTriangles, objectStarts)
        : read(format, bytes, maxTriangles);
  } catch (error) {
    if (error instanceof ModelError) throw error;
    // Running out of memory on a model within the limits: the customer can only simplify it.
    if (error instanceof RangeError) throw new ModelError(TOO_MANY_TRIANGLES_MESSAGE);
    throw error;
  }
  if (mesh.indices.length === 0) throw new ModelError(NO_TRIANGLES_MESSAGE);
  const model: ParsedModel = { format, fileUnit: format === "3mf" ? "mm" : null, mesh };
  if (objectStarts.length > 1) model.objectStarts = objectStarts;
  return model;
}

function read(format: ModelFormat, bytes: Uint8Array, maxTriangles: number): Mesh {
  switch (format) {
    case "stl":
      return parseStl(bytes, maxTriangles);
    case "obj":
      return parseObj(bytes, maxTriangles);
    case "ply":
      return parsePly(bytes, maxTriangles);
    case "3mf":
      return parse3mf(bytes, maxTriangles);
  }
}

export type { AnalyseOptions, EdgeCounts, MeshGeometry } from "./analyse.ts";
export {
  analyseMesh,
  edgeCounts,
  fitsBuildVolume,
  MM_PER_UNIT,
  meshGeometry,
  problemEdges,
  shellSigns,
} from "./analyse.ts";
export {
  FILE_TOO_LARGE_MESSAGE,
  invalidFileMessage,
  NO_TRIANGLES_MESSAGE,
  TOO_MANY_TRIANGLES_MESSAGE,
  UNSUPPORTED_FILE_MESSAGE,
} from "./messages.ts";
export { type MeshMeasure, measureBinaryStl } from "./stl.ts";
export * from "./types.ts";
export { releaseScratch, scratchBytes } from "./weld.ts";
