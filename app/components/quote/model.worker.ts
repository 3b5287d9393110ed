/**
 * Reads and measures a model file off the main thread, with the same pure module the server
 * runs, so the page can show the parts and their prices the moment a file is dropped. The
 * printability checks (overhangs, wall thickness) follow in a message per part: the price shows
 * first, the checks as they finish.
 */

import { storedGeometry } from "~/rules/model3d/geometry.ts";
import { analyseMesh, parseModel, problemEdges } from "~/rules/model3d/index.ts";
import { modelParts } from "~/rules/model3d/parts.ts";
import { checkPrintabilityDetail } from "~/rules/model3d/printability.ts";
import { ModelError } from "~/rules/model3d/types.ts";
import type { WorkerPart, WorkerReply, WorkerRequest } from "./model-worker-protocol.ts";

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage: (message: WorkerReply, transfer?: Transferable[]) => void;
};

scope.onmessage = (e) => {
  const { id, bytes, name, split } = e.data;
  const started = performance.now();
  let parts: ReturnType<typeof modelParts>;
  try {
    parts = modelParts(parseModel(new Uint8Array(bytes), name), split);
    const shown: WorkerPart[] = [];
    const transfer: Transferable[] = [];
    for (const { model, origin } of parts) {
      const a = analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
      // A watertight mesh has no edge to draw: its second edge pass is skipped.
      const edges = a.watertight ? new Float32Array(0) : problemEdges(model.mesh);
      // Copies go to the page; the checks below still need the mesh.
      const positions = model.mesh.positions.slice();
      const indices = model.mesh.indices.slice();
      shown.push({
        geometry: storedGeometry(model, a, undefined, origin),
        mesh: { positions, indices },
        edges,
      });
      transfer.push(positions.buffer, indices.buffer, edges.buffer);
    }
    scope.postMessage(
      { id, ok: true, kind: "analysis", parts: shown, ms: performance.now() - started },
      transfer,
    );
  } catch (error) {
    scope.postMessage({
      id,
      ok: false,
      error:
        error instanceof ModelError
          ? error.message
          : "This file could not be read. Please check it and try again.",
    });
    return;
  }
  parts.forEach(({ model }, part) => {
    try {
      const checked = performance.now();
      const { overhang, thickness, ...printability } = checkPrintabilityDetail(model.mesh);
      scope.postMessage(
        {
          id,
          ok: true,
          kind: "checks",
          part,
          printability,
          overhang,
          thickness,
          ms: performance.now() - checked,
        },
        [overhang.buffer, thickness.buffer] as Transferable[],
      );
    } catch {
      // The checks are extra: without them the part is priced as before (the server checks too).
    }
  });
};
