import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { MailMessage } from "~/adapters/mail/types.ts";
import { jobLeases, jobs } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";

/*
 * Background work that every instance shares through the database (docs/decisions/0008):
 *
 * - Jobs (e-mails for now) are rows written in the same transaction as the change that needs
 *   them, so a crash between the commit and the send loses nothing. Any instance claims due jobs
 *   with `for update skip locked`, so each runs once; a failure is retried with back-off, and a
 *   claim whose instance died lapses and is taken again.
 * - Recurring work that one instance at a time must do (payment reconciliation) runs under a
 *   lease: a row that names its holder until it expires, renewed while the holder lives.
 *
 * Plain SQL that PGlite and PostgreSQL both run; no extra service.
 */

type Executor = Database | Tx;

/** The jobs the shop knows, with their payloads. */
export type JobPayloads = {
  /** Rendered from the order when it runs. */
  "order-email": {
    orderId: string;
    template: "confirmation" | "shipped" | "out-for-delivery" | "delivered" | "cancelled";
  };
  /** A message rendered when it was queued (contact form, quote replies). */
  mail: MailMessage;
  /** The responsive variants of a stored image that arrived without them (an import). */
  "image-variants": { storagePath: string };
  /**
   * A priced custom part through the slicer (docs/decisions/0020); `key` names the pricing it is
   * for, so a result for an older one is dropped. Run by the slicing runner only.
   */
  "slice-quote": { quoteId: string; key: string };
};
export type JobKind = keyof JobPayloads;
export type JobHandlers = { [K in JobKind]: (payload: JobPayloads[K]) => Promise<void> };

/** This process's name in claims and leases (host, pid and a random tag). */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** How long a claim lasts before another instance may take the job again. */
const CLAIM_MS = 5 * 60_000;
/** Done and dead jobs are kept this long, then deleted. */
const KEEP_MS = 7 * 24 * 3_600_000;

/** The database's clock: every instance compares times against the same one. */
const dbNow = sql`now()`;
const dbNowPlus = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

/** Milliseconds to wait before attempt n+1 (n ≥ 1): 10 s, 30 s, 1.5 min … capped at 1 hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(3_600_000, 10_000 * 3 ** Math.max(0, attempts - 1));
}

/**
 * Queues a job. Pass the transaction that makes the change the job follows from, so both commit
 * or neither does. With a dedupe key, a second job for the same key is ignored.
 */
export async function enqueueJob<K extends JobKind>(
  db: Executor,
  kind: K,
  payload: JobPayloads[K],
  options: { dedupeKey?: string; runAt?: Date; maxAttempts?: number } = {},
): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind,
      payload,
      dedupeKey: options.dedupeKey ?? null,
      runAt: options.runAt ?? dbNow,
      maxAttempts: options.maxAttempts ?? 8,
    })
    .onConflictDoNothing();
}

type JobRow = typeof jobs.$inferSelect;

/** Which jobs a claim may take: only these kinds, all but these, only never tried. */
type ClaimFilter = {
  kinds?: readonly JobKind[];
  except?: readonly JobKind[];
  neverTried?: boolean;
  claimMs?: number;
};

/** Claims up to `limit` due jobs (queued and due, or running with a lapsed claim). */
async function claim(db: Database, limit: number, only?: ClaimFilter): Promise<JobRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          sql`((${jobs.status} = 'queued' and ${jobs.runAt} <= ${dbNow})
            or (${jobs.status} = 'running' and ${jobs.lockedUntil} < ${dbNow}))`,
          only?.kinds ? inArray(jobs.kind, [...only.kinds]) : undefined,
          only?.except?.length ? notInArray(jobs.kind, [...only.except]) : undefined,
          only?.neverTried ? eq(jobs.attempts, 0) : undefined,
        ),
      )
      .orderBy(jobs.runAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(jobs)
      .set({
        status: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: dbNowPlus(only?.claimMs ?? CLAIM_MS),
        lockedBy: INSTANCE_ID,
        updatedAt: dbNow,
      })
      .where(
        inArray(
          jobs.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/**
 * Thrown by a handler whose work was cut short by the shop stopping (a slice killed at shutdown):
 * nothing was wrong with the job, so it goes back to the queue (due after the first retry's delay,
 * by when the shop has restarted) without using one of its attempts. A shop restarted a few times
 * mid-slice would otherwise run out of them.
 */
export class JobInterrupted extends Error {
  override name = "JobInterrupted";
}

async function finish(db: Database, job: JobRow, error: unknown): Promise<void> {
  const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, INSTANCE_ID));
  if (error === undefined) {
    await db
      .update(jobs)
      .set({ status: "done", lockedUntil: null, lastError: null, updatedAt: dbNow })
      .where(mine);
    return;
  }
  // By name too: a handler's bundle may hold a second copy of this module.
  if (error instanceof JobInterrupted || (error as Error | null)?.name === "JobInterrupted") {
    await db
      .update(jobs)
      .set({
        status: "queued",
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        // Not at once: a stopping shop's drain would claim it again straight away.
        runAt: dbNowPlus(retryDelayMs(1)),
        lockedUntil: null,
        lastError: String((error as Error).message).slice(0, 2000),
        updatedAt: dbNow,
      })
      .where(mine);
    log.info("a job was cut short by the shop stopping; it stays queued", {
      jobId: job.id,
      kind: job.kind,
    });
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  const dead = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set({
      status: dead ? "dead" : "queued",
      runAt: dbNowPlus(retryDelayMs(job.attempts)),
      lockedUntil: null,
      lastError: message.slice(0, 2000),
      updatedAt: dbNow,
    })
    .where(mine);
  const fields = { jobId: job.id, kind: job.kind, attempts: job.attempts, error };
  if (dead) log.error("a job failed for the last time", fields);
  else log.warning("a job failed; it will be retried", fields);
}

/** Sends queued jobs now, after a commit; what fails here the runner retries later. */
export type RunJobsNow = Pick<JobRunner, "sendNow">;

export async function runQueuedNow(runner: RunJobsNow | undefined): Promise<void> {
  try {
    await runner?.sendNow();
  } catch (error) {
    log.warning("running queued jobs failed; the job runner will retry", { error });
  }
}

/** The kinds a request sends itself right after its commit: quick, and the customer waits on them. */
const QUICK_KINDS: readonly JobKind[] = ["order-email", "mail"];

export type JobRunner = {
  /** Runs every job that is due now (claimed in batches); resolves with how many ran. */
  runDue(): Promise<number>;
  /**
   * For a request after its commit: up to 10 e-mails never tried yet (its own among them, unless
   * a burst is sending at the same moment), never slow work such as image variants and never the
   * retries of an outage; the poller does the rest within seconds.
   */
  sendNow(): Promise<number>;
  /** Polls for due jobs every `everyMs` and tidies old ones; stop() waits for a run in flight. */
  start(everyMs?: number): { stop: () => Promise<void> };
};

/**
 * Which jobs a runner takes, and how many at once. The shop's main runner takes every kind one
 * after another; the slicing runner takes only slicing jobs, one per core (decision 0020), and
 * the main runner leaves those to it.
 */
export type RunnerScope = {
  kinds?: readonly JobKind[];
  except?: readonly JobKind[];
  /** Jobs run at the same time (each claimed on its own); 1 runs batches in order. */
  parallel?: number;
  /** How long a claim lasts (longer than the slowest job): 5 minutes unless said. */
  claimMs?: number;
};

/** A kind without a handler fails (and is retried, then kept as dead): the runtime passes all. */
export function createJobRunner(
  db: Database,
  handlers: Partial<JobHandlers>,
  scope: RunnerScope = {},
): JobRunner {
  const filter: ClaimFilter = { kinds: scope.kinds, except: scope.except, claimMs: scope.claimMs };
  const lanes = Math.max(1, Math.floor(scope.parallel ?? 1));
  let inFlight: Promise<number> | null = null;
  let again = false;

  async function runBatch(batch: JobRow[]): Promise<number> {
    for (const job of batch) {
      const handler = handlers[job.kind as JobKind] as
        | ((payload: unknown) => Promise<void>)
        | undefined;
      let error: unknown;
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        await handler(job.payload);
      } catch (e) {
        error = e ?? new Error("job failed");
      }
      await finish(db, job, error);
    }
    return batch.length;
  }

  async function drain(): Promise<number> {
    let ran = 0;
    if (lanes === 1) {
      for (;;) {
        const batch = await claim(db, 10, filter);
        if (batch.length === 0) return ran;
        ran += await runBatch(batch);
      }
    }
    // Several lanes, each claiming one job at a time: never more than `lanes` running here.
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (;;) {
          const batch = await claim(db, 1, filter);
          if (batch.length === 0) return;
          // Counted after the await: `ran += await …` would add to a stale total.
          const done = await runBatch(batch);
          ran += done;
        }
      }),
    );
    return ran;
  }

  // One drain at a time in this process; a call during a drain asks for one more pass after it.
  function runDue(): Promise<number> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      let total = 0;
      do {
        again = false;
        total += await drain();
      } while (again);
      return total;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    runDue,
    // Not behind the poller's drain: a customer never waits for someone else's backlog.
    sendNow: async () =>
      runBatch(
        await claim(db, 10, {
          kinds: QUICK_KINDS.filter(
            (k) => (!scope.kinds || scope.kinds.includes(k)) && !scope.except?.includes(k),
          ),
          neverTried: true,
        }),
      ),
    start: (everyMs = 2_000) =>
      startLoop(everyMs, "job run failed", async () => {
        await runDue();
        await tidy(db);
      }),
  };
}

export type Loop = { stop: () => Promise<void> };

/**
 * Runs `run` every `everyMs`, never two at once (a slow run skips ticks); a failure is logged and
 * the next tick tries again. stop() waits for the run in flight. Doesn't keep the process alive.
 */
export function startLoop(everyMs: number, failure: string, run: () => Promise<unknown>): Loop {
  let stopped = false;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = run()
      .catch((error) => log.warning(failure, { error }))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

let lastTidy = 0;
async function tidy(db: Database): Promise<void> {
  if (Date.now() - lastTidy < 3_600_000) return;
  lastTidy = Date.now();
  await db
    .delete(jobs)
    .where(
      and(
        inArray(jobs.status, ["done", "dead"]),
        lt(jobs.updatedAt, new Date(Date.now() - KEEP_MS)),
      ),
    );
}

/**
 * Takes or renews the named lease for `ttlMs`; true while this instance holds it. A lease whose
 * holder stopped renewing (crashed) is free once it expires. Times are the database's (`at` lets
 * tests move the clock).
 */
export async function holdLease(
  db: Database,
  name: string,
  ttlMs: number,
  holder = INSTANCE_ID,
  at?: Date,
): Promise<boolean> {
  const now = at ?? dbNow;
  const expiresAt = at ? new Date(at.getTime() + ttlMs) : dbNowPlus(ttlMs);
  const rows = await db
    .insert(jobLeases)
    .values({ name, holder, expiresAt })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { holder, expiresAt },
      setWhere: sql`${jobLeases.expiresAt} < ${now} or ${jobLeases.holder} = ${holder}`,
    })
    .returning({ holder: jobLeases.holder });
  return rows.length === 1 && rows[0].holder === holder;
}

/** Gives the lease up (on shutdown), so another instance takes over at once. */
export async function releaseLease(db: Database, name: string, holder = INSTANCE_ID) {
  await db.delete(jobLeases).where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)));
}

/** Counts of queued (due or not), running and dead jobs, for /metrics. */
export async function jobCounts(db: Database): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: jobs.status, n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(inArray(jobs.status, ["queued", "running", "dead"]))
    .groupBy(jobs.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
