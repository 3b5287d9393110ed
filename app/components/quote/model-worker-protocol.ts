import type { Mesh } from "~/rules/model3d/types.ts";
import type { StoredGeometry } from "~/rules/stored-shapes.ts";

/** Messages between the quote page and its model worker. */
export type WorkerRequest = { id: number; bytes: ArrayBuffer; name: string };
export type WorkerReply =
  | {
      id: number;
      ok: true;
      geometry: StoredGeometry;
      mesh: Mesh;
      edges: Float32Array;
      ms: number;
    }
  | { id: number; ok: false; error: string };
