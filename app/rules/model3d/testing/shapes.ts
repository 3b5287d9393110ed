/**
 * Test shapes and file encoders for the model parsers: boxes (closed or without a top) as meshes,
 * and writers for binary/ASCII STL, OBJ, ASCII/binary PLY and 3MF. Used by the unit tests, the
 * parse benchmark and the end-to-end upload test. Not for production code.
 */
import { zipSync } from "fflate";
import type { Mesh } from "../types.ts";

type Axis = 0 | 1 | 2;

/**
 * The six faces of a box as (fixed axis, at max?, u axis, v axis), with u × v pointing out of the
 * box, so that each quad (0,0) (1,0) (1,1) (0,1) in (u, v) is counter-clockwise seen from outside.
 */
const FACES: Array<[Axis, boolean, Axis, Axis]> = [
  [2, false, 1, 0], // bottom, −z: y × x = −z
  [2, true, 0, 1], // top, +z
  [0, false, 2, 1], // −x: z × y = −x
  [0, true, 1, 2], // +x: y × z = +x
  [1, false, 0, 2], // −y: x × z = −y
  [1, true, 2, 0], // +y: z × x = +y
];

/**
 * A box [0, sx] × [0, sy] × [0, sz] as a triangle soup (9 numbers per triangle), each face cut
 * into divisions × divisions quads of two triangles. Coordinates on shared edges are computed the
 * same way on every face, so they are bit-identical. `top: false` leaves the top face out.
 */
export function boxSoup(
  sx: number,
  sy: number,
  sz: number,
  divisions = 1,
  options: { top?: boolean } = {},
): Float32Array {
  const g = Math.max(1, Math.floor(divisions));
  const faces = FACES.filter(([axis, atMax]) => options.top !== false || !(axis === 2 && atMax));
  const out = new Float32Array(faces.length * g * g * 2 * 9);
  const extent = [sx, sy, sz];
  const coordinate = (axis: number, i: number) => (i === g ? extent[axis] : (i * extent[axis]) / g);
  const corner = [0, 0, 0];
  let o = 0;
  const put = (fixed: Axis, atMax: boolean, u: Axis, v: Axis, i: number, j: number) => {
    corner[fixed] = atMax ? extent[fixed] : 0;
    corner[u] = coordinate(u, i);
    corner[v] = coordinate(v, j);
    out[o++] = corner[0];
    out[o++] = corner[1];
    out[o++] = corner[2];
  };
  for (const [fixed, atMax, u, v] of faces) {
    for (let j = 0; j < g; j++) {
      for (let i = 0; i < g; i++) {
        put(fixed, atMax, u, v, i, j);
        put(fixed, atMax, u, v, i + 1, j);
        put(fixed, atMax, u, v, i + 1, j + 1);
        put(fixed, atMax, u, v, i, j);
        put(fixed, atMax, u, v, i + 1, j + 1);
        put(fixed, atMax, u, v, i, j + 1);
      }
    }
  }
  return out;
}

/** An indexed mesh from a triangle soup, sharing corners with equal coordinates. */
export function soupToMesh(soup: Float32Array): Mesh {
  const ids = new Map<string, number>();
  const positions: number[] = [];
  const indices = new Uint32Array(soup.length / 3);
  for (let c = 0; c < soup.length / 3; c++) {
    const x = soup[c * 3];
    const y = soup[c * 3 + 1];
    const z = soup[c * 3 + 2];
    const key = `${x},${y},${z}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = positions.length / 3;
      ids.set(key, id);
      positions.push(x, y, z);
    }
    indices[c] = id;
  }
  return { positions: new Float32Array(positions), indices };
}

/** A closed cube of the given edge length (mm), 8 vertices and 12 triangles, outward normals. */
export function cube(sizeMm: number): Mesh {
  return soupToMesh(boxSoup(sizeMm, sizeMm, sizeMm));
}

/** A closed box of the given sizes, optionally translated and subdivided. */
export function box(
  sx: number,
  sy: number,
  sz: number,
  options: { divisions?: number; offset?: [number, number, number]; top?: boolean } = {},
): Mesh {
  const soup = boxSoup(sx, sy, sz, options.divisions ?? 1, { top: options.top });
  const [dx, dy, dz] = options.offset ?? [0, 0, 0];
  for (let i = 0; i < soup.length; i += 3) {
    soup[i] += dx;
    soup[i + 1] += dy;
    soup[i + 2] += dz;
  }
  return soupToMesh(soup);
}

/** A cube without its top face: 10 triangles and 4 open edges around the rim. */
export function openBox(sizeMm: number): Mesh {
  return soupToMesh(boxSoup(sizeMm, sizeMm, sizeMm, 1, { top: false }));
}

/** The same mesh with every triangle's winding reversed (normals pointing inwards). */
export function flipped(mesh: Mesh): Mesh {
  const indices = mesh.indices.slice();
  for (let t = 0; t < indices.length; t += 3) {
    const b = indices[t + 1];
    indices[t + 1] = indices[t + 2];
    indices[t + 2] = b;
  }
  return { positions: mesh.positions.slice(), indices };
}

function corner(mesh: Mesh, t: number, c: number): [number, number, number] {
  const v = mesh.indices[t * 3 + c] * 3;
  return [mesh.positions[v], mesh.positions[v + 1], mesh.positions[v + 2]];
}

function normal(a: number[], b: number[], c: number[]): [number, number, number] {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  const length = Math.hypot(n[0], n[1], n[2]) || 1;
  return [n[0] / length, n[1] / length, n[2] / length];
}

/** Binary STL: an 80-byte header (default "solid …", as some exporters write), count, records. */
export function toBinaryStl(
  mesh: Mesh,
  header = "solid shape made by the LayerKart tests",
): Uint8Array {
  const n = mesh.indices.length / 3;
  const out = new Uint8Array(84 + 50 * n);
  const view = new DataView(out.buffer);
  for (let i = 0; i < Math.min(80, header.length); i++) out[i] = header.charCodeAt(i) & 0x7f;
  view.setUint32(80, n, true);
  for (let t = 0; t < n; t++) {
    const a = corner(mesh, t, 0);
    const b = corner(mesh, t, 1);
    const c = corner(mesh, t, 2);
    const o = 84 + 50 * t;
    const [nx, ny, nz] = normal(a, b, c);
    view.setFloat32(o, nx, true);
    view.setFloat32(o + 4, ny, true);
    view.setFloat32(o + 8, nz, true);
    for (let i = 0; i < 3; i++) {
      view.setFloat32(o + 12 + 4 * i, a[i], true);
      view.setFloat32(o + 24 + 4 * i, b[i], true);
      view.setFloat32(o + 36 + 4 * i, c[i], true);
    }
  }
  return out;
}

const encoder = new TextEncoder();

export function toAsciiStl(mesh: Mesh, name = "shape"): Uint8Array {
  const lines = [`solid ${name}`];
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    const a = corner(mesh, t, 0);
    const b = corner(mesh, t, 1);
    const c = corner(mesh, t, 2);
    lines.push(`  facet normal ${normal(a, b, c).join(" ")}`, "    outer loop");
    for (const p of [a, b, c]) lines.push(`      vertex ${p.join(" ")}`);
    lines.push("    endloop", "  endfacet");
  }
  lines.push(`endsolid ${name}`, "");
  return encoder.encode(lines.join("\n"));
}

/** OBJ with 1-based `f a b c` faces (`faces: "slashes"` writes `f a/a/1 …` with a vt and vn). */
export function toObj(mesh: Mesh, options: { faces?: "plain" | "slashes" } = {}): Uint8Array {
  const lines = ["# made by the LayerKart tests", "o shape"];
  for (let v = 0; v < mesh.positions.length; v += 3) {
    lines.push(`v ${mesh.positions[v]} ${mesh.positions[v + 1]} ${mesh.positions[v + 2]}`);
  }
  if (options.faces === "slashes") lines.push("vn 0 0 1");
  for (let v = 0; v < mesh.positions.length; v += 3) {
    if (options.faces === "slashes") lines.push("vt 0 0");
  }
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t] + 1, mesh.indices[t + 1] + 1, mesh.indices[t + 2] + 1];
    lines.push(
      options.faces === "slashes" ? `f ${a}/${a}/1 ${b}/${b}/1 ${c}/${c}/1` : `f ${a} ${b} ${c}`,
    );
  }
  lines.push("");
  return encoder.encode(lines.join("\n"));
}

function plyHeader(mesh: Mesh, format: string): string {
  return [
    "ply",
    `format ${format} 1.0`,
    "comment made by the LayerKart tests",
    `element vertex ${mesh.positions.length / 3}`,
    "property float x",
    "property float y",
    "property float z",
    `element face ${mesh.indices.length / 3}`,
    "property list uchar int vertex_indices",
    "end_header",
    "",
  ].join("\n");
}

export function toAsciiPly(mesh: Mesh): Uint8Array {
  const lines = [plyHeader(mesh, "ascii")];
  for (let v = 0; v < mesh.positions.length; v += 3) {
    lines.push(`${mesh.positions[v]} ${mesh.positions[v + 1]} ${mesh.positions[v + 2]}\n`);
  }
  for (let t = 0; t < mesh.indices.length; t += 3) {
    lines.push(`3 ${mesh.indices[t]} ${mesh.indices[t + 1]} ${mesh.indices[t + 2]}\n`);
  }
  return encoder.encode(lines.join(""));
}

export function toBinaryPly(mesh: Mesh, options: { bigEndian?: boolean } = {}): Uint8Array {
  const little = !options.bigEndian;
  const header = encoder.encode(
    plyHeader(mesh, little ? "binary_little_endian" : "binary_big_endian"),
  );
  const vertices = mesh.positions.length / 3;
  const faces = mesh.indices.length / 3;
  const out = new Uint8Array(header.length + vertices * 12 + faces * 13);
  out.set(header);
  const view = new DataView(out.buffer);
  let o = header.length;
  for (let i = 0; i < mesh.positions.length; i++, o += 4) {
    view.setFloat32(o, mesh.positions[i], little);
  }
  for (let t = 0; t < faces; t++) {
    view.setUint8(o++, 3);
    for (let c = 0; c < 3; c++, o += 4) view.setInt32(o, mesh.indices[t * 3 + c], little);
  }
  return out;
}

/** The 3MF model XML for one mesh object placed once on the build plate. */
export function threeMfModelXml(
  mesh: Mesh,
  options: { unit?: string; transform?: string } = {},
): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<model unit="${options.unit ?? "millimeter"}" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">`,
    "  <resources>",
    '    <object id="1" type="model">',
    "      <mesh>",
    "        <vertices>",
  ];
  for (let v = 0; v < mesh.positions.length; v += 3) {
    parts.push(
      `          <vertex x="${mesh.positions[v]}" y="${mesh.positions[v + 1]}" z="${mesh.positions[v + 2]}" />`,
    );
  }
  parts.push("        </vertices>", "        <triangles>");
  for (let t = 0; t < mesh.indices.length; t += 3) {
    parts.push(
      `          <triangle v1="${mesh.indices[t]}" v2="${mesh.indices[t + 1]}" v3="${mesh.indices[t + 2]}" />`,
    );
  }
  const transform = options.transform ? ` transform="${options.transform}"` : "";
  parts.push(
    "        </triangles>",
    "      </mesh>",
    "    </object>",
    "  </resources>",
    "  <build>",
    `    <item objectid="1"${transform} />`,
    "  </build>",
    "</model>",
    "",
  );
  return parts.join("\n");
}

export const CONTENT_TYPES_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" />
  <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml" />
</Types>
`;

export const RELS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel" />
</Relationships>
`;

/**
 * A 3MF package: [Content_Types].xml, _rels/.rels and 3D/3dmodel.model, plus any `files`.
 * `level: 0` stores the parts without compression.
 */
export function to3mf(
  mesh: Mesh,
  options: {
    unit?: string;
    transform?: string;
    files?: Record<string, string>;
    level?: 0 | 6 | 9;
  } = {},
): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": encoder.encode(CONTENT_TYPES_XML),
    "_rels/.rels": encoder.encode(RELS_XML),
    "3D/3dmodel.model": encoder.encode(threeMfModelXml(mesh, options)),
  };
  for (const [name, text] of Object.entries(options.files ?? {})) {
    files[name] = encoder.encode(text);
  }
  return zipSync(files, { level: options.level ?? 6 });
}

/**
 * A closed, watertight binary STL of about `triangles` triangles (a 100 mm box whose faces are cut
 * into a grid), written straight into the bytes, for benchmarks and large-file tests.
 */
export function manyTriangleStl(triangles: number): Uint8Array {
  const g = Math.max(1, Math.round(Math.sqrt(triangles / 12)));
  const soup = boxSoup(100, 100, 100, g);
  const n = soup.length / 9;
  const out = new Uint8Array(84 + 50 * n);
  const view = new DataView(out.buffer);
  const header = "binary STL made by the LayerKart bench";
  for (let i = 0; i < header.length; i++) out[i] = header.charCodeAt(i);
  view.setUint32(80, n, true);
  for (let t = 0; t < n; t++) {
    const o = 84 + 50 * t;
    const s = t * 9;
    const [nx, ny, nz] = normal(
      [soup[s], soup[s + 1], soup[s + 2]],
      [soup[s + 3], soup[s + 4], soup[s + 5]],
      [soup[s + 6], soup[s + 7], soup[s + 8]],
    );
    view.setFloat32(o, nx, true);
    view.setFloat32(o + 4, ny, true);
    view.setFloat32(o + 8, nz, true);
    for (let i = 0; i < 9; i++) view.setFloat32(o + 12 + 4 * i, soup[s + i], true);
  }
  return out;
}

/**
 * A UV sphere of `radius` centred at `center`: a pole at each end, `rings` − 1 rings of `segments`
 * vertices between them, 2 × segments × (rings − 1) triangles (128 × 64: 16,128), closed and wound
 * outwards (the seam reuses the ring's first vertex, so it is watertight).
 */
export function sphere(
  radius: number,
  segments = 128,
  rings = 64,
  center: [number, number, number] = [radius, radius, radius],
): Mesh {
  const [cx, cy, cz] = center;
  const positions = new Float32Array((2 + (rings - 1) * segments) * 3);
  positions.set([cx, cy, cz + radius], 0);
  for (let i = 1; i < rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      const v = (1 + (i - 1) * segments + j) * 3;
      positions[v] = cx + radius * Math.sin(theta) * Math.cos(phi);
      positions[v + 1] = cy + radius * Math.sin(theta) * Math.sin(phi);
      positions[v + 2] = cz + radius * Math.cos(theta);
    }
  }
  const south = 1 + (rings - 1) * segments;
  positions.set([cx, cy, cz - radius], south * 3);
  const ring = (i: number, j: number) => 1 + (i - 1) * segments + (j % segments);
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) {
    indices.push(0, ring(1, j), ring(1, j + 1));
    for (let i = 1; i < rings - 1; i++) {
      const a = ring(i, j);
      const b = ring(i + 1, j);
      const c = ring(i + 1, j + 1);
      const d = ring(i, j + 1);
      indices.push(a, b, c, a, c, d);
    }
    indices.push(ring(rings - 1, j), south, ring(rings - 1, j + 1));
  }
  return { positions, indices: new Uint32Array(indices) };
}

/** Two meshes as one (the second's vertex numbers shifted), e.g. two shells in one file. */
export function merged(a: Mesh, b: Mesh): Mesh {
  const positions = new Float32Array(a.positions.length + b.positions.length);
  positions.set(a.positions);
  positions.set(b.positions, a.positions.length);
  const shift = a.positions.length / 3;
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(a.indices);
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = b.indices[i] + shift;
  return { positions, indices };
}

/** A 3MF package with one object per mesh, each placed once (`transform`, 3MF's 12 numbers). */
export function to3mfObjects(
  objects: Array<{ mesh: Mesh; transform?: string }>,
  options: { unit?: string } = {},
): Uint8Array {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<model unit="${options.unit ?? "millimeter"}" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">`,
    "<resources>",
  ];
  objects.forEach(({ mesh }, i) => {
    parts.push(`<object id="${i + 1}" type="model"><mesh><vertices>`);
    for (let v = 0; v < mesh.positions.length; v += 3) {
      parts.push(
        `<vertex x="${mesh.positions[v]}" y="${mesh.positions[v + 1]}" z="${mesh.positions[v + 2]}"/>`,
      );
    }
    parts.push("</vertices><triangles>");
    for (let t = 0; t < mesh.indices.length; t += 3) {
      parts.push(
        `<triangle v1="${mesh.indices[t]}" v2="${mesh.indices[t + 1]}" v3="${mesh.indices[t + 2]}"/>`,
      );
    }
    parts.push("</triangles></mesh></object>");
  });
  parts.push("</resources>", "<build>");
  objects.forEach(({ transform }, i) => {
    parts.push(`<item objectid="${i + 1}"${transform ? ` transform="${transform}"` : ""}/>`);
  });
  parts.push("</build>", "</model>", "");
  return zipSync({
    "[Content_Types].xml": encoder.encode(CONTENT_TYPES_XML),
    "_rels/.rels": encoder.encode(RELS_XML),
    "3D/3dmodel.model": encoder.encode(parts.join("\n")),
  });
}

/**
 * A solid made of cubes of `size` at the given integer cells (x, y, z), with only the faces
 * between a cube and empty space: watertight whenever no two cubes meet only along an edge.
 */
export function voxels(cells: Array<[number, number, number]>, size = 1): Mesh {
  const filled = new Set(cells.map((c) => c.join(",")));
  const soups: Float32Array[] = [];
  const unit = boxSoup(size, size, size);
  // boxSoup's faces in order: −z, +z, −x, +x, −y, +y (two triangles each).
  const neighbours: Array<[number, number, number]> = [
    [0, 0, -1],
    [0, 0, 1],
    [-1, 0, 0],
    [1, 0, 0],
    [0, -1, 0],
    [0, 1, 0],
  ];
  for (const [x, y, z] of cells) {
    neighbours.forEach(([dx, dy, dz], face) => {
      if (filled.has(`${x + dx},${y + dy},${z + dz}`)) return;
      const quad = unit.slice(face * 18, face * 18 + 18);
      for (let i = 0; i < 18; i += 3) {
        quad[i] += x * size;
        quad[i + 1] += y * size;
        quad[i + 2] += z * size;
      }
      soups.push(quad);
    });
  }
  const soup = new Float32Array(soups.reduce((n, s) => n + s.length, 0));
  let o = 0;
  for (const s of soups) {
    soup.set(s, o);
    o += s.length;
  }
  return soupToMesh(soup);
}
