import type { Mesh } from "~/rules/model3d/types.ts";

/** The faces `pick` selects, as a triangle soup (9 floats each) for the preview to colour. */
export function faceSoup(mesh: Mesh, pick: (face: number) => boolean): Float32Array {
  const p = mesh.positions;
  const ix = mesh.indices;
  const n = Math.floor(ix.length / 3);
  let count = 0;
  for (let t = 0; t < n; t++) if (pick(t)) count++;
  const out = new Float32Array(count * 9);
  let o = 0;
  for (let t = 0; t < n; t++) {
    if (!pick(t)) continue;
    for (let c = 0; c < 3; c++) {
      const v = ix[t * 3 + c] * 3;
      out[o++] = p[v];
      out[o++] = p[v + 1];
      out[o++] = p[v + 2];
    }
  }
  return out;
}

/**
 * Faces to colour on the preview: those needing support, and those on walls thinner than
 * `minWallMm` at this unit and scale (only measured faces are known).
 */
export function printabilityHighlights(
  mesh: Mesh,
  overhang: Uint8Array,
  thickness: Float32Array,
  mmPerUnit: number,
  minWallMm: number,
): { overhang: Float32Array; thin: Float32Array } {
  const limit = minWallMm / mmPerUnit;
  return {
    overhang: faceSoup(mesh, (t) => overhang[t] === 1),
    thin: faceSoup(mesh, (t) => thickness[t] < limit),
  };
}
