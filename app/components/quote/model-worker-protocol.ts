import type { SplitKind } from "~/rules/model3d/parts.ts";
import type { Mesh } from "~/rules/model3d/types.ts";
import type { StoredGeometry, StoredPrintability } from "~/rules/stored-shapes.ts";

/** One part of a file as the page shows it (see app/rules/model3d/parts.ts). */
export type WorkerPart = { geometry: StoredGeometry; mesh: Mesh; edges: Float32Array };

/**
 * Messages between the quote page and its model worker. `split: "body"` cuts the model into its
 * separate bodies; a 3MF with several objects is cut by object anyway.
 */
export type WorkerRequest = {
  id: number;
  bytes: ArrayBuffer;
  name: string;
  split: SplitKind | null;
};
export type WorkerReply =
  | { id: number; ok: true; kind: "analysis"; parts: WorkerPart[]; ms: number }
  | {
      /** Sent after the analysis, one per part, when the slower printability checks are done. */
      id: number;
      ok: true;
      kind: "checks";
      part: number;
      printability: StoredPrintability;
      /** Per face: 1 when it needs support. */
      overhang: Uint8Array;
      /** Per face: wall thickness in file units (NaN where not measured). */
      thickness: Float32Array;
      ms: number;
    }
  | { id: number; ok: false; error: string };
