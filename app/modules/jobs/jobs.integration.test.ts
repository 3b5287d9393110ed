import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobLeases, jobs } from "~/db/schema.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import {
  createJobRunner,
  enqueueJob,
  holdLease,
  JobInterrupted,
  type JobPayloads,
  releaseLease,
  retryDelayMs,
} from "./jobs.server.ts";

/*
 * The durable job queue and the leases, on both databases: a job exists only if its transaction
 * committed, runs once however many runners ask, is retried with back-off and given up after its
 * attempts, and a claim whose instance died is taken again; a lease has one holder at a time.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.destroy();
});
beforeEach(async () => {
  await t.db.delete(jobs);
  await t.db.delete(jobLeases);
});

type Mail = JobPayloads["order-email"];
const mail = (orderId: string): Mail => ({ orderId, template: "confirmation" });

function recorder(fail: (job: Mail) => boolean = () => false) {
  const seen: string[] = [];
  const runner = createJobRunner(t.db, {
    "order-email": async (job) => {
      seen.push(job.orderId);
      if (fail(job)) throw new Error(`cannot send ${job.orderId}`);
    },
  });
  return { seen, runner };
}

describe(`jobs on ${testDbKind()}`, () => {
  it("the slicing runner takes only slicing jobs, several at once, and the main runner leaves them", async () => {
    for (const n of [1, 2, 3]) {
      await enqueueJob(t.db, "slice-quote", { quoteId: `q${n}`, key: `k${n}` });
    }
    await enqueueJob(t.db, "order-email", mail("e1"));
    const sliced: string[] = [];
    const mailed: string[] = [];
    let running = 0;
    let most = 0;
    const handlers = {
      "order-email": async (job: Mail) => {
        mailed.push(job.orderId);
      },
      "slice-quote": async (job: JobPayloads["slice-quote"]) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 50));
        sliced.push(job.quoteId);
        running--;
      },
    };
    const main = createJobRunner(t.db, handlers, { except: ["slice-quote"] });
    expect(await main.runDue()).toBe(1);
    expect(mailed).toEqual(["e1"]);
    expect(sliced).toEqual([]);
    const slicing = createJobRunner(t.db, handlers, { kinds: ["slice-quote"], parallel: 2 });
    expect(await slicing.runDue()).toBe(3);
    expect(sliced.sort()).toEqual(["q1", "q2", "q3"]);
    expect(most).toBe(2);
  });

  it("a job queued in a transaction that rolls back never exists", async () => {
    await t.db
      .transaction(async (tx) => {
        await enqueueJob(tx, "order-email", mail("rolled-back"));
        throw new Error("the change failed");
      })
      .catch(() => {});
    await t.db.transaction(async (tx) => {
      await enqueueJob(tx, "order-email", mail("committed"));
    });
    const { seen, runner } = recorder();
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["committed"]);
  });

  it("a dedupe key queues a job once", async () => {
    for (let i = 0; i < 3; i++) {
      await enqueueJob(t.db, "order-email", mail("once"), { dedupeKey: "k-once" });
    }
    expect(await t.db.select().from(jobs)).toHaveLength(1);
  });

  it("several runners at once run each job exactly once", async () => {
    for (let i = 0; i < 40; i++) await enqueueJob(t.db, "order-email", mail(`o${i}`));
    const runners = [recorder(), recorder(), recorder()];
    await Promise.all(runners.map((r) => r.runner.runDue()));
    const all = runners.flatMap((r) => r.seen).sort();
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    const rows = await t.db.select().from(jobs);
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
  });

  it("a failure is retried later with back-off, and given up after its last attempt", async () => {
    await enqueueJob(t.db, "order-email", mail("flaky"), { maxAttempts: 2 });
    const { seen, runner } = recorder(() => true);
    await runner.runDue();
    let [row] = await t.db.select().from(jobs);
    expect(row).toMatchObject({ status: "queued", attempts: 1, lastError: "cannot send flaky" });
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + retryDelayMs(1) - 2_000);
    // Not due yet: nothing runs.
    expect(await runner.runDue()).toBe(0);
    await t.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) });
    await runner.runDue();
    [row] = await t.db.select().from(jobs);
    expect(row).toMatchObject({ status: "dead", attempts: 2 });
    expect(seen).toEqual(["flaky", "flaky"]);
    await t.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) });
    expect(await runner.runDue()).toBe(0);
  });

  it("a job cut short by the shop stopping is queued again without using an attempt", async () => {
    await enqueueJob(t.db, "order-email", mail("cut"), { maxAttempts: 1 });
    let stopping = true;
    const seen: string[] = [];
    const runner = createJobRunner(t.db, {
      "order-email": async (job) => {
        seen.push(job.orderId);
        if (stopping) throw new JobInterrupted("the shop stopped while sending");
      },
    });
    for (let restart = 0; restart < 3; restart++) {
      // One run per drain: it is not claimed again straight away by the same stopping runner.
      expect(await runner.runDue()).toBe(1);
      const [row] = await t.db.select().from(jobs);
      expect(row).toMatchObject({ status: "queued", attempts: 0 });
      expect(row?.lastError).toBe("the shop stopped while sending");
      expect(row?.runAt.getTime()).toBeGreaterThan(Date.now() + retryDelayMs(1) - 2_000);
      await t.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) });
    }
    // Its one attempt is still there for the shop that comes back.
    stopping = false;
    expect(await runner.runDue()).toBe(1);
    const [row] = await t.db.select().from(jobs);
    expect(row).toMatchObject({ status: "done", attempts: 1 });
    expect(seen).toEqual(["cut", "cut", "cut", "cut"]);
  });

  it("a job whose instance died mid-run is taken again once its claim lapses", async () => {
    await enqueueJob(t.db, "order-email", mail("orphan"));
    await t.db.update(jobs).set({
      status: "running",
      attempts: 1,
      lockedBy: "a-dead-instance",
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const { seen, runner } = recorder();
    expect(await runner.runDue()).toBe(0);
    await t.db.update(jobs).set({ lockedUntil: new Date(Date.now() - 1) });
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["orphan"]);
    const [row] = await t.db.select().from(jobs);
    expect(row).toMatchObject({ status: "done", attempts: 2 });
  });

  it("a job of an unknown kind fails and is kept for a look, not lost", async () => {
    await t.db.insert(jobs).values({ kind: "from-a-newer-version", payload: {}, maxAttempts: 1 });
    const { runner } = recorder();
    await runner.runDue();
    const [row] = await t.db.select().from(jobs);
    expect(row).toMatchObject({ status: "dead" });
    expect(row.lastError).toContain("no handler");
  });

  it("a request's sendNow sends fresh e-mails only: no slow work, no retries of an outage", async () => {
    await enqueueJob(t.db, "order-email", mail("fresh"));
    await enqueueJob(t.db, "order-email", mail("retrying"));
    await t.db
      .update(jobs)
      .set({ attempts: 3 })
      .where(sql`${jobs.payload}->>'orderId' = 'retrying'`);
    await enqueueJob(t.db, "image-variants", { storagePath: "products/p/1_a.png" });
    const seen: string[] = [];
    const runner = createJobRunner(t.db, {
      "order-email": async (job) => {
        seen.push(job.orderId);
      },
      "image-variants": async (job) => {
        seen.push(job.storagePath);
      },
    });
    expect(await runner.sendNow()).toBe(1);
    expect(seen).toEqual(["fresh"]);
    // The poller's run takes the rest.
    expect(await runner.runDue()).toBe(2);
    expect(seen.sort()).toEqual(["fresh", "products/p/1_a.png", "retrying"]);
  });

  it("a lease has one holder at a time, renews for its holder and frees on expiry or release", async () => {
    const now = new Date();
    expect(await holdLease(t.db, "lease", 30_000, "A", now)).toBe(true);
    expect(await holdLease(t.db, "lease", 30_000, "B", now)).toBe(false);
    expect(await holdLease(t.db, "lease", 30_000, "A", new Date(now.getTime() + 10_000))).toBe(
      true,
    );
    // A stopped renewing (crashed): B takes over once the lease has run out.
    const later = new Date(now.getTime() + 45_000);
    expect(await holdLease(t.db, "lease", 30_000, "B", later)).toBe(true);
    expect(await holdLease(t.db, "lease", 30_000, "A", later)).toBe(false);
    await releaseLease(t.db, "lease", "B");
    expect(await holdLease(t.db, "lease", 30_000, "A", later)).toBe(true);
    const rows = await t.db.select().from(jobLeases).where(eq(jobLeases.name, "lease"));
    expect(rows).toHaveLength(1);
  });

  it("concurrent takers of a free lease: exactly one wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => holdLease(t.db, "race", 30_000, `I${i}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
