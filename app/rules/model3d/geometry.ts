/**
 * Reads and measures a model into the measurements a quote keeps. Shared by the upload's worker
 * thread (app/modules/quotes/measure.worker.ts, which Node runs outside the bundle: relative imports only) and the
 * in-process fallback.
 */
import type { StoredGeometry } from "../stored-shapes.ts";
import { analyseMesh, parseModel } from "./index.ts";
import { modelParts, type PartOrigin, type SplitKind } from "./parts.ts";
import { checkPrintability, type Printability } from "./printability.ts";
import type { BuildVolume, ModelAnalysis, ParsedModel } from "./types.ts";

/**
 * Each part's measurements: one for most files, one per object of a 3MF with several, one per
 * body when `split` is "body" (see parts.ts).
 */
export function measureBytes(
  bytes: Uint8Array,
  name: string,
  printers: BuildVolume[],
  split: SplitKind | null = null,
): StoredGeometry[] {
  return modelParts(parseModel(bytes, name), split).map(({ model, origin }) => {
    const analysis = analyseMesh(model, { unit: "mm", scale: 1, printers });
    return storedGeometry(model, analysis, checkPrintability(model.mesh), origin);
  });
}

/** What a quote keeps of an analysis (the browser's worker shows the same fields). */
export function storedGeometry(
  model: ParsedModel,
  a: ModelAnalysis,
  printability?: Printability,
  origin?: PartOrigin | null,
): StoredGeometry {
  return {
    format: a.format,
    fileUnit: model.fileUnit,
    triangles: a.triangles,
    vertices: a.vertices,
    volume: a.volume,
    area: a.area,
    size: a.size,
    watertight: a.watertight,
    openEdges: a.openEdges,
    nonManifoldEdges: a.nonManifoldEdges,
    invertedNormals: a.invertedNormals,
    mixedShells: a.mixedShells ?? false,
    bodyCount: a.bodyCount,
    ...(a.bodies.length > 0 ? { bodies: a.bodies } : {}),
    ...(printability ? { printability } : {}),
    ...(origin ? { part: origin } : {}),
  };
}
