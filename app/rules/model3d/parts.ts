/**
 * One file, several parts: a 3MF's build items (each object placed on the plate) or a model's
 * separate bodies, each cut out as a mesh of its own so it can be measured, shown, priced and
 * ordered on its own. The browser and the server cut the same file the same way, so part N on the
 * page is part N of the upload.
 */
import { shellRoots } from "./shells.ts";
import type { Mesh, ParsedModel } from "./types.ts";

/** Most parts one file is cut into; a file with more stays one part (priced per body anyway). */
export const MAX_PARTS_PER_FILE = 50;

export type SplitKind = "object" | "body";

/** Where a part came from: part `index` (0-based) of `of`, cut by object or by body. */
export interface PartOrigin {
  kind: SplitKind;
  index: number;
  of: number;
}

export interface ModelPart {
  model: ParsedModel;
  origin: PartOrigin | null;
}

/**
 * The triangles of each group as a mesh of its own, vertices renumbered in first-use order.
 * `groupOf` gives each triangle's group (0 … count-1); empty groups give no mesh.
 */
export function cutMesh(mesh: Mesh, groupOf: Uint32Array, count: number): Mesh[] {
  const triangles = Math.floor(mesh.indices.length / 3);
  // The triangles in group order (a counting sort), so each group is cut in one go.
  const first = new Uint32Array(count + 1);
  for (let t = 0; t < triangles; t++) first[groupOf[t] + 1]++;
  for (let g = 0; g < count; g++) first[g + 1] += first[g];
  const order = new Uint32Array(triangles);
  const next = first.slice(0, count);
  for (let t = 0; t < triangles; t++) order[next[groupOf[t]]++] = t;
  // A vertex's number in the group being cut, valid while stamp[v] is that group's.
  const number = new Uint32Array(mesh.positions.length / 3);
  const stamp = new Int32Array(mesh.positions.length / 3).fill(-1);
  const out: Mesh[] = [];
  for (let g = 0; g < count; g++) {
    if (first[g + 1] === first[g]) continue;
    const indices = new Uint32Array((first[g + 1] - first[g]) * 3);
    const vertices: number[] = [];
    let i = 0;
    for (let o = first[g]; o < first[g + 1]; o++) {
      const t = order[o];
      for (let k = 0; k < 3; k++) {
        const v = mesh.indices[t * 3 + k];
        if (stamp[v] !== g) {
          stamp[v] = g;
          number[v] = vertices.length;
          vertices.push(v);
        }
        indices[i++] = number[v];
      }
    }
    const positions = new Float32Array(vertices.length * 3);
    for (let n = 0; n < vertices.length; n++) {
      positions[n * 3] = mesh.positions[vertices[n] * 3];
      positions[n * 3 + 1] = mesh.positions[vertices[n] * 3 + 1];
      positions[n * 3 + 2] = mesh.positions[vertices[n] * 3 + 2];
    }
    out.push({ positions, indices });
  }
  return out;
}

/** Each triangle's body (separate shell), bodies numbered in order of first appearance. */
export function bodyGroups(mesh: Mesh): { groupOf: Uint32Array; count: number } {
  const root = shellRoots(mesh);
  const number = new Int32Array(root.length).fill(-1);
  const triangles = Math.floor(mesh.indices.length / 3);
  const groupOf = new Uint32Array(triangles);
  let count = 0;
  for (let t = 0; t < triangles; t++) {
    const r = root[mesh.indices[t * 3]];
    if (number[r] < 0) number[r] = count++;
    groupOf[t] = number[r];
  }
  return { groupOf, count };
}

/** Each triangle's build item, from the triangle number where each item starts. */
export function objectGroups(
  mesh: Mesh,
  objectStarts: readonly number[],
): { groupOf: Uint32Array; count: number } {
  const triangles = Math.floor(mesh.indices.length / 3);
  const groupOf = new Uint32Array(triangles);
  for (let g = 0; g < objectStarts.length; g++) {
    const end = g + 1 < objectStarts.length ? objectStarts[g + 1] : triangles;
    groupOf.fill(g, Math.min(objectStarts[g], triangles), Math.min(end, triangles));
  }
  return { groupOf, count: objectStarts.length };
}

/**
 * The parts of a parsed model: by body when the customer asked to split it (`split: "body"`),
 * otherwise by a 3MF's objects when there are several, otherwise the model as one part. A model
 * that would make more than MAX_PARTS_PER_FILE parts (or only one) stays whole.
 */
export function modelParts(model: ParsedModel, split: SplitKind | null = null): ModelPart[] {
  const whole = [{ model, origin: null }];
  const groups =
    split === "body"
      ? bodyGroups(model.mesh)
      : model.objectStarts && model.objectStarts.length > 1
        ? objectGroups(model.mesh, model.objectStarts)
        : null;
  if (!groups || groups.count < 2 || groups.count > MAX_PARTS_PER_FILE) return whole;
  const meshes = cutMesh(model.mesh, groups.groupOf, groups.count);
  if (meshes.length < 2) return whole;
  const kind: SplitKind = split === "body" ? "body" : "object";
  return meshes.map((mesh, index) => ({
    model: { format: model.format, fileUnit: model.fileUnit, mesh },
    origin: { kind, index, of: meshes.length },
  }));
}

/** "cube.stl" → "cube (part 2 of 3).stl": the name a part's quote and cart line carry. */
export function partFileName(fileName: string, origin: PartOrigin | null): string {
  if (!origin) return fileName;
  const dot = fileName.lastIndexOf(".");
  const base = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = dot > 0 ? fileName.slice(dot) : "";
  return `${base} (part ${origin.index + 1} of ${origin.of})${ext}`;
}
