/**
 * Reads and measures a model into the measurements a quote keeps. Shared by the upload's worker
 * thread (measure.worker.ts, which Node runs outside the bundle: relative imports only) and the
 * in-process fallback.
 */
import type { StoredGeometry } from "../../db/schema.ts";
import { analyseMesh, parseModel } from "../../rules/model3d/index.ts";
import type { BuildVolume } from "../../rules/model3d/types.ts";

export function measureBytes(
  bytes: Uint8Array,
  name: string,
  printers: BuildVolume[],
): StoredGeometry {
  const model = parseModel(bytes, name);
  const a = analyseMesh(model, { unit: "mm", scale: 1, printers });
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
  };
}
