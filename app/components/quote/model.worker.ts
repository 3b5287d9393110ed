/**
 * Reads and measures a model file off the main thread, with the same pure module the server
 * runs, so the page can show the part and its price the moment a file is dropped. The
 * printability checks (overhangs, wall thickness) follow in a second message: the price shows
 * first, the checks as they finish.
 */

import { storedGeometry } from "~/rules/model3d/geometry.ts";
import { analyseMesh, parseModel, problemEdges } from "~/rules/model3d/index.ts";
import { checkPrintabilityDetail } from "~/rules/model3d/printability.ts";
import { ModelError } from "~/rules/model3d/types.ts";
import type { WorkerReply, WorkerRequest } from "./model-worker-protocol.ts";

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage: (message: WorkerReply, transfer?: Transferable[]) => void;
};

scope.onmessage = (e) => {
  const { id, bytes, name } = e.data;
  const started = performance.now();
  let model: ReturnType<typeof parseModel>;
  try {
    model = parseModel(new Uint8Array(bytes), name);
    const a = analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
    const edges = problemEdges(model.mesh);
    // Copies go to the page; the checks below still need the mesh.
    const positions = model.mesh.positions.slice();
    const indices = model.mesh.indices.slice();
    scope.postMessage(
      {
        id,
        ok: true,
        kind: "analysis",
        geometry: storedGeometry(model, a),
        mesh: { positions, indices },
        edges,
        ms: performance.now() - started,
      },
      [positions.buffer, indices.buffer, edges.buffer] as Transferable[],
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
  try {
    const checked = performance.now();
    const { overhang, thickness, ...printability } = checkPrintabilityDetail(model.mesh);
    scope.postMessage(
      {
        id,
        ok: true,
        kind: "checks",
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
};
