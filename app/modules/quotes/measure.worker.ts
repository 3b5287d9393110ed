/**
 * A worker thread that reads and measures uploaded models, one at a time (measure.server.ts sends
 * each file's bytes and keeps the thread for the next upload), so a large file never stalls the
 * server's event loop. Relative imports only: Node runs this file directly, outside the bundle.
 */
import { parentPort } from "node:worker_threads";
import { measureBytes } from "../../rules/model3d/geometry.ts";
import type { SplitKind } from "../../rules/model3d/parts.ts";
import type { BuildVolume } from "../../rules/model3d/types.ts";
import { ModelError } from "../../rules/model3d/types.ts";
import { releaseScratch, scratchBytes } from "../../rules/model3d/weld.ts";

/**
 * Scratch memory a kept worker holds on to between files (its typed arrays are outside the heap
 * limit): what a model of about 2 million triangles needs; after a larger one it is let go.
 */
const KEEP_SCRATCH_BYTES = 256 * 1024 * 1024;

type Request = {
  bytes: Uint8Array;
  name: string;
  printers: BuildVolume[];
  split: SplitKind | null;
};

parentPort?.on("message", ({ bytes, name, printers, split }: Request) => {
  try {
    const geometries = measureBytes(bytes, name, printers, split);
    parentPort?.postMessage({ ok: true, bytes, geometries }, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage(
      {
        ok: false,
        bytes,
        modelError: error instanceof ModelError,
        message: error instanceof Error ? error.message : String(error),
      },
      [bytes.buffer as ArrayBuffer],
    );
  } finally {
    if (scratchBytes() > KEEP_SCRATCH_BYTES) releaseScratch();
  }
});
