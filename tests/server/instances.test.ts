import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "~/adapters/db/index.server.ts";
import { jobLeases, jobs, products, user } from "~/db/schema.ts";
import { enqueueJob } from "~/modules/jobs/jobs.server.ts";
import { RECONCILER_LEASE } from "~/modules/payments/payments.server.ts";
import { cube, toBinaryStl } from "~/rules/model3d/testing/shapes.ts";
import { insertOrder } from "../support/factories.ts";
import { type LocalS3, startLocalS3 } from "../support/s3-server.ts";
import {
  freePort,
  type Started,
  startServer,
  stopServer,
  waitReady,
} from "../support/server-process.ts";
import { createPostgresDatabase } from "../support/test-database.ts";

/*
 * Two instances of the built shop on two ports against one PostgreSQL database and one
 * S3-compatible bucket (a local s3rver process), each with its own data folder (nothing shared on
 * disk): a session made on one is good on the other, a cart filled on one is read on the other,
 * an image or a model file uploaded to one is served by the other, the public forms' rate limits
 * count across both, queued jobs run once between them, and payment reconciliation runs on one
 * instance at a time, moving to the other when its holder stops.
 */

const secret = "instances-test-secret-instances-test-secret";
const adminPassword = "instances-admin-password";

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let s3: LocalS3;
let database: DatabaseHandle;
const dirs: string[] = [];
const servers: Started[] = [];
const base = (s: Started) => `http://127.0.0.1:${s.port}`;

async function start(): Promise<Started> {
  const dir = await mkdtemp(path.join(tmpdir(), "lk-instance-"));
  dirs.push(dir);
  const port = await freePort();
  const s = startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dir,
    DATABASE_URL: pg.url,
    ...s3.env,
    S3_BUCKET: "layerkart-shared",
    AUTH_SECRET: secret,
    SEED_DEMO: "auto",
    ALLOW_DEMO_SEED: "true",
    ALLOW_SANDBOX_PAYMENTS: "true",
    DEMO_ADMIN_PASSWORD: adminPassword,
    TRUST_PROXY: "true",
    LOG_LEVEL: "warning",
  });
  servers.push(s);
  await waitReady(port, s.child);
  return s;
}

const dataDirOf = (s: Started) => dirs[servers.indexOf(s)];

async function outboxCount(s: Started): Promise<number> {
  try {
    return (await readdir(path.join(dataDirOf(s), "outbox"))).filter((f) => f.endsWith(".eml"))
      .length;
  } catch {
    return 0;
  }
}

let a: Started;
let b: Started;

beforeAll(async () => {
  pg = await createPostgresDatabase();
  s3 = await startLocalS3(["layerkart-shared"]);
  // The first seeds the demo catalogue; the second finds it there.
  a = await start();
  b = await start();
  database = await openDatabase({ databaseUrl: pg.url });
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await database?.close();
  await pg?.drop();
  await s3?.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function signIn(s: Started): Promise<string> {
  const res = await fetch(`${base(s)}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base(s), "x-forwarded-for": "10.9.0.1" },
    body: JSON.stringify({ email: "admin@example.com", password: adminPassword }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("two instances on one PostgreSQL database", () => {
  it("a session made on one instance is good on the other, and so is its cart", async () => {
    const cookie = await signIn(a);
    // The session is good on the other instance: its stored cart, a signed-in customer's, answers.
    const session = await fetch(`${base(b)}/api/cart`, { headers: { cookie } });
    expect(session.status).toBe(200);

    const [product] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.isActive, true))
      .limit(1);
    const put = await fetch(`${base(a)}/api/cart`, {
      method: "POST",
      headers: {
        cookie,
        origin: base(a),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ intent: "set", productId: product.id, quantity: "3" }),
    });
    expect(put.status).toBe(200);
    const cart = await (await fetch(`${base(b)}/api/cart`, { headers: { cookie } })).json();
    expect(JSON.stringify(cart)).toContain(product.id);
    expect(JSON.stringify(cart)).toMatch(/"quantity":3/);

    // Signing out on the second ends the session on the first too.
    const out = await fetch(`${base(b)}/api/auth/sign-out`, {
      method: "POST",
      headers: { cookie, origin: base(b), "content-type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    const after = await fetch(`${base(a)}/api/cart`, { headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it("an image uploaded to one instance, and a customer's model file, are served by the other", async () => {
    const cookie = await signIn(a);
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: "#c0392b" },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("scope", "product");
    form.set("productId", randomUUID());
    form.set("file", new File([new Uint8Array(png)], "red.png", { type: "image/png" }));
    const up = await fetch(`${base(a)}/api/admin/uploads`, {
      method: "POST",
      headers: { cookie, origin: base(a) },
      body: form,
    });
    expect(up.status).toBe(200);
    const { url } = (await up.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\/products\//);
    const image = await fetch(`${base(b)}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).format).toBe("webp");
    const avif = await fetch(`${base(b)}${url}.w320.avif`);
    expect(avif.status).toBe(200);
    expect((await fetch(`${base(b)}/uploads/products/none.webp`)).status).toBe(404);
    // A size not made (yet) is answered with the stored image, uncached.
    const pending = await fetch(`${base(b)}${url}.w999.webp`);
    expect(pending.status).toBe(200);
    expect(pending.headers.get("cache-control")).toBe("no-cache");

    const stl = toBinaryStl(cube(10));
    const sent = await fetch(`${base(a)}/api/quotes/upload?name=cube.stl`, {
      method: "POST",
      headers: { cookie, origin: base(a), "content-type": "application/octet-stream" },
      body: new Uint8Array(stl),
    });
    expect(sent.status).toBe(200);
    const { quote } = (await sent.json()) as { quote: { id: string } };
    const model = await fetch(`${base(b)}/quotes/${quote.id}/model`, { headers: { cookie } });
    expect(model.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await model.arrayBuffer()), Buffer.from(stl))).toBe(0);
    // A visitor without the session doesn't get it (sent to sign in).
    const anonymous = await fetch(`${base(b)}/quotes/${quote.id}/model`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/auth/);
  });

  it("the newsletter's limit (10 a minute per address) counts requests to both instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const s = i % 2 === 0 ? a : b;
      const res = await fetch(`${base(s)}/api/newsletter`, {
        method: "POST",
        headers: {
          origin: base(s),
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": "203.0.113.77",
        },
        body: new URLSearchParams({ email: `both-${i}@example.com` }),
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("queued jobs run once between the two instances", async () => {
    const [admin] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "admin@example.com"));
    const [product] = await database.db.select({ id: products.id }).from(products).limit(1);
    const before = (await outboxCount(a)) + (await outboxCount(b));
    const count = 30;
    for (let i = 0; i < count; i++) {
      const order = await insertOrder(database.db, admin.id, [product.id]);
      await enqueueJob(database.db, "order-email", { orderId: order.id, template: "confirmation" });
    }
    // Both instances poll every 2 s; each claims with skip locked.
    const deadline = Date.now() + 30_000;
    let done: { status: string; attempts: number; lockedBy: string | null }[] = [];
    while (Date.now() < deadline) {
      done = await database.db
        .select({ status: jobs.status, attempts: jobs.attempts, lockedBy: jobs.lockedBy })
        .from(jobs)
        .where(eq(jobs.kind, "order-email"));
      if (done.length >= count && done.every((j) => j.status === "done")) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(done.filter((j) => j.status === "done")).toHaveLength(count);
    expect(done.every((j) => j.attempts === 1)).toBe(true);
    const after = (await outboxCount(a)) + (await outboxCount(b));
    expect(after - before).toBe(count);
  });

  it("reconciliation runs on one instance at a time and moves when its holder stops", async () => {
    const pids = [a.child.pid, b.child.pid].map(String);
    const holderPid = async () => {
      const [lease] = await database.db
        .select()
        .from(jobLeases)
        .where(and(eq(jobLeases.name, RECONCILER_LEASE)));
      return lease ? lease.holder.split(":").at(-2) : undefined;
    };
    const waitFor = async (ok: (pid: string | undefined) => boolean) => {
      const deadline = Date.now() + 20_000;
      let pid = await holderPid();
      while (!ok(pid) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        pid = await holderPid();
      }
      return pid;
    };
    const first = await waitFor((pid) => pid !== undefined);
    expect(pids).toContain(first);
    const leases = await database.db.select().from(jobLeases);
    expect(leases.filter((l) => l.name === RECONCILER_LEASE)).toHaveLength(1);

    const holder = first === String(a.child.pid) ? a : b;
    const other = holder === a ? b : a;
    await stopServer(holder);
    const next = await waitFor((pid) => pid === String(other.child.pid));
    expect(next).toBe(String(other.child.pid));
  });
});
