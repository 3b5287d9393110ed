import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { StoredGeometry } from "~/db/schema.ts";
// Relative imports (and no `~/` at run time): bench/model-upload.ts runs this file with Node.
import { log } from "../../lib/log.server.ts";
import { measureBytes } from "../../rules/model3d/geometry.ts";
import { releaseScratch } from "../../rules/model3d/index.ts";
import type { SplitKind } from "../../rules/model3d/parts.ts";
import { type BuildVolume, ModelError } from "../../rules/model3d/types.ts";

/*
 * Reading a 100 MB model takes the CPU for a second or more: done on the request's thread it would
 * stall every other customer's page. Uploads are measured in worker threads that are kept between
 * uploads (docs/decisions/0028): at most one per core and never more than the upload route lets
 * run at once (3), each with its old-generation memory capped and a time limit per file. A worker
 * that crashes, runs out of memory or overruns the limit is ended, and the next upload starts a new
 * one; a worker left idle for IDLE_MS ends too, giving its memory back. A kept worker has its code
 * compiled and optimised and its scratch memory already touched, which a thread per upload paid
 * for on every file. The worker runs the same pure module the browser runs (app/rules/model3d),
 * from the source tree next to the build.
 */

const WORKER_FILE = path.resolve(process.cwd(), "app/modules/quotes/measure.worker.ts");
const TIME_LIMIT_MS = 60_000;
/** An idle worker ends after this long (its scratch memory goes with it). */
export const IDLE_MS = 30_000;
/** Workers alive at most: one per core, and no more than the uploads read at once. */
export const MAX_WORKERS = Math.max(1, Math.min(3, availableParallelism()));
export const TOO_SLOW_MESSAGE =
  "This file took too long to read. Please simplify it and try again.";

type Request = {
  bytes: Uint8Array;
  name: string;
  printers: BuildVolume[];
  split: SplitKind | null;
};
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

interface Slot {
  worker: Worker;
  /** Set once the thread has exited (or is being ended): never given a file again. */
  dead: boolean;
  idleTimer: NodeJS.Timeout | null;
}

const idle: Slot[] = [];
/** Worker threads alive (idle or busy). */
let live = 0;
/** Threads started since the process began (for tests and logs). */
let started = 0;
/** Uploads waiting for a worker, oldest first. */
const waiting: Array<() => void> = [];

/** How many model workers are alive and idle, and how many were ever started. */
export function modelWorkers(): { live: number; idle: number; started: number } {
  return { live, idle: idle.length, started };
}

/** Ends the idle workers now (shutdown, tests); busy ones end when their file is done. */
export async function closeModelWorkers(): Promise<void> {
  const ending = idle.splice(0);
  await Promise.all(ending.map((slot) => end(slot)));
}

function startWorker(): Slot {
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: 1536 } });
  const slot: Slot = { worker, dead: false, idleTimer: null };
  live += 1;
  started += 1;
  worker.on("exit", () => {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.dead = true;
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    live -= 1;
    waiting.shift()?.();
  });
  // An error ends the thread ('exit' follows); the upload it was reading is told in run().
  worker.on("error", () => {});
  return slot;
}

async function acquire(): Promise<Slot> {
  for (;;) {
    const slot = idle.pop();
    if (slot) {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      return slot;
    }
    if (live < MAX_WORKERS) return startWorker();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(slot: Slot) {
  if (slot.dead) return;
  // An idle worker must not keep the process alive.
  slot.worker.unref();
  slot.idleTimer = setTimeout(() => {
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    void end(slot);
  }, IDLE_MS);
  slot.idleTimer.unref();
  idle.push(slot);
  waiting.shift()?.();
}

async function end(slot: Slot) {
  slot.dead = true;
  await slot.worker.terminate();
}

/** Sends one file to the worker and waits for its answer, the time limit or the thread's end. */
function run(slot: Slot, request: Request, timeLimitMs: number): Promise<Reply> {
  const worker = slot.worker;
  worker.ref();
  return new Promise<Reply>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (message: Reply) => {
      settle();
      resolve(message);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`the model worker stopped (exit code ${code})`));
    };
    const timer = setTimeout(() => {
      settle();
      void end(slot);
      reject(new ModelError(TOO_SLOW_MESSAGE));
    }, timeLimitMs);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    try {
      // Moved, not copied: a 100 MB file costs no second 100 MB.
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    } catch (error) {
      settle();
      reject(error);
    }
  });
}

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
  /** Tests: a shorter time limit than the uploads' 60 s. */
  timeLimitMs = TIME_LIMIT_MS,
): Promise<Measured> {
  if (!existsSync(WORKER_FILE)) {
    warnOnce();
    return measureHere(bytes, name, printers, split);
  }
  const slot = await acquire();
  let reply: Reply;
  try {
    reply = await run(slot, { bytes, name, printers, split }, timeLimitMs);
  } catch (error) {
    // Crashed, out of memory or too slow: this thread is not used again.
    void end(slot);
    throw error;
  }
  // A failure that isn't the file's (an allocation that failed, a bug) may have left the thread
  // in a bad state: it is not used again.
  if (reply.ok || reply.modelError) release(slot);
  else void end(slot);
  if (reply.ok) return { geometries: reply.geometries, bytes: reply.bytes, where: "worker" };
  throw reply.modelError ? new ModelError(reply.message) : new Error(reply.message);
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
