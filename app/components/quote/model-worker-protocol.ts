import type { Mesh } from "~/rules/model3d/types.ts";
import type { StoredGeometry, StoredPrintability } from "~/rules/stored-shapes.ts";

/** Messages between the quote page and its model worker. */
export type WorkerRequest = { id: number; bytes: ArrayBuffer; name: string };
export type WorkerReply =
  | {
      id: number;
      ok: true;
      kind: "analysis";
      geometry: StoredGeometry;
      mesh: Mesh;
      edges: Float32Array;
      ms: number;
    }
  | {
      /** Sent after the analysis, when the slower printability checks are done. */
      id: number;
      ok: true;
      kind: "checks";
      printability: StoredPrintability;
      /** Per face: 1 when it needs support. */
      overhang: Uint8Array;
      /** Per face: wall thickness in file units (NaN where not measured). */
      thickness: Float32Array;
      ms: number;
    }
  | { id: number; ok: false; error: string };
