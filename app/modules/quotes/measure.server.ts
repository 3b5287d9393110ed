import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { StoredGeometry } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { releaseScratch } from "~/rules/model3d/index.ts";
import type { SplitKind } from "~/rules/model3d/parts.ts";
import { type BuildVolume, ModelError } from "~/rules/model3d/types.ts";
import { measureBytes } from "../../rules/model3d/geometry.ts";

/*
 * Reading a 100 MB model takes the CPU for a second or more: done on the request's thread it would
 * stall every other customer's page. Each upload is measured in a worker thread of its own (the
 * upload route lets at most 3 run at once), with its memory capped and a time limit; the thread
 * and all its memory go away when it answers. The worker runs the same pure module the browser
 * runs (app/rules/model3d), from the source tree next to the build.
 */

const WORKER_FILE = path.resolve(process.cwd(), "app/modules/quotes/measure.worker.ts");
const TIME_LIMIT_MS = 60_000;
export const TOO_SLOW_MESSAGE =
  "This file took too long to read. Please simplify it and try again.";

type Reply =
  | { ok: true; bytes: Uint8Array; geometries: StoredGeometry[] }
  | { ok: false; bytes: Uint8Array; modelError: boolean; message: string };

export type Measured = {
  /** One per part: most files are one part; see app/rules/model3d/parts.ts. */
  geometries: StoredGeometry[];
  bytes: Uint8Array;
  /** "worker" normally; "here" when the worker file isn't beside the build. */
  where: "worker" | "here";
};

/**
 * Measures a model off the event loop. The bytes are moved to the worker and back: use the
 * returned `bytes`, not the ones passed in. Throws a ModelError with the customer-facing text for
 * a file that can't be used.
 */
export async function measureModel(
  bytes: Uint8Array,
  name: string,
  printers: BuildVolume[],
  split: SplitKind | null = null,
): Promise<Measured> {
  if (!existsSync(WORKER_FILE)) {
    warnOnce();
    return measureHere(bytes, name, printers, split);
  }
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: 1536 } });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ModelError(TOO_SLOW_MESSAGE)), TIME_LIMIT_MS);
      worker.once("message", (message: Reply) => {
        clearTimeout(timer);
        resolve(message);
      });
      worker.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the model worker stopped (exit code ${code})`));
      });
      // Moved, not copied: a 100 MB file costs no second 100 MB.
      worker.postMessage({ bytes, name, printers, split }, [bytes.buffer as ArrayBuffer]);
    });
    if (reply.ok) return { geometries: reply.geometries, bytes: reply.bytes, where: "worker" };
    throw reply.modelError ? new ModelError(reply.message) : new Error(reply.message);
  } finally {
    await worker.terminate();
  }
}

function measureHere(
  bytes: Uint8Array,
  name: string,
  printers: BuildVolume[],
  split: SplitKind | null,
): Measured {
  try {
    return { geometries: measureBytes(bytes, name, printers, split), bytes, where: "here" };
  } finally {
    // The parser keeps scratch memory for the next file; a server gives it back.
    releaseScratch();
  }
}

let warned = false;
function warnOnce() {
  if (warned) return;
  warned = true;
  log.warning(
    "the model worker file is missing (start the shop from its folder); measuring models on the main thread",
    {
      file: WORKER_FILE,
    },
  );
}
