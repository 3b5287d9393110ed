import { readdir } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "~/db/schema.ts";
import * as authRoute from "~/routes/api.auth.$.ts";
import {
  authPost,
  browserHeaders,
  createVerifiedUser,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * Issue 20, finding 3: Better Auth's own endpoints, as a browser reaches them through
 * /api/auth/* (routes/api.auth.$.ts). Only those behind the shop's screens answer, with the
 * shop's rules; the rest are not there.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;

beforeAll(async () => {
  harness = await startProcessRuntime();
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

const args = (request: Request) =>
  ({ request, params: {}, context: {} }) as unknown as Parameters<typeof authRoute.action>[0];
const post = (endpoint: string, body: unknown, cookie?: string) =>
  authRoute.action(args(authPost(endpoint, body, { ip: uniqueIp(), cookie })));
const get = (endpoint: string, cookie?: string) =>
  authRoute.loader(
    args(
      new Request(`${TEST_ORIGIN}/api/auth${endpoint}`, {
        headers: browserHeaders({ cookie, ip: uniqueIp() }),
      }),
    ),
  );
const outbox = async () =>
  (await readdir(path.join(harness.rt.env.dataDir, "outbox")).catch(() => [])).length;

describe(`Better Auth's endpoints from a browser on ${testDbKind()}`, () => {
  it("sign-up takes a name as the shop's form does: short, plain, no picture", async () => {
    const before = await outbox();
    for (const body of [
      { name: "Click https://evil.example to claim your refund ".repeat(60) },
      { name: "x".repeat(122) },
      { name: "Mallory\u0000" },
      { name: "<b>Mallory</b>" },
      { name: "Mallory", image: "javascript:alert(1)" },
    ]) {
      const email = uniqueEmail("signup-guard");
      const res = await post("/sign-up/email", { ...body, email, password: "signup-password-1" });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const [row] = await harness.rt.db.select().from(user).where(eq(user.email, email));
      expect(row).toBeUndefined();
    }
    // No e-mail carried any of those names.
    expect(await outbox()).toBe(before);

    const email = uniqueEmail("signup-ok");
    const ok = await post("/sign-up/email", {
      name: "  Rene\u0301 Kumar ",
      email,
      password: "signup-password-1",
    });
    expect(ok.status).toBe(200);
    const [row] = await harness.rt.db.select().from(user).where(eq(user.email, email));
    expect(row.name).toBe("René Kumar");
    expect(row.image).toBeNull();
  });

  it("the endpoints the shop has its own screens for, or doesn't offer, are not there", async () => {
    const account = await createVerifiedUser(harness.rt.auth, harness.rt.db, {
      email: uniqueEmail("endpoints"),
    });
    const cookie = await signInCookie(harness.rt.auth, account);
    const refused: Array<[string, Response]> = [
      ["update-user", await post("/update-user", { name: "x".repeat(100_000) }, cookie)],
      ["update-user image", await post("/update-user", { image: "javascript:alert(1)" }, cookie)],
      [
        "change-password",
        await post(
          "/change-password",
          { currentPassword: account.password, newPassword: "another-password-9" },
          cookie,
        ),
      ],
      ["change-email", await post("/change-email", { newEmail: "x@example.com" }, cookie)],
      ["delete-user", await post("/delete-user", {}, cookie)],
      ["revoke-sessions", await post("/revoke-sessions", {}, cookie)],
      ["list-sessions", await get("/list-sessions", cookie)],
      ["get-session", await get("/get-session", cookie)],
      ["list-accounts", await get("/list-accounts", cookie)],
    ];
    for (const [name, res] of refused) {
      expect(res.status, name).toBe(404);
      expect(await res.text(), name).not.toMatch(/token/i);
    }
    const [row] = await harness.rt.db.select().from(user).where(eq(user.id, account.id));
    expect(row.name).toBe("Test Customer");
    expect(row.image).toBeNull();
  });

  it("signing in sets the session cookie and never puts the token in the answer's body", async () => {
    const account = await createVerifiedUser(harness.rt.auth, harness.rt.db, {
      email: uniqueEmail("no-token"),
    });
    const res = await post("/sign-in/email", { email: account.email, password: account.password });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join(";")).toContain("session_token=");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.token ?? null).toBeNull();
    expect(JSON.stringify(body)).not.toMatch(/session_token|"token":"/);
  });

  it("a password change, from any path, ends the account's other sessions", async () => {
    const { auth, db } = harness.rt;
    const account = await createVerifiedUser(auth, db, { email: uniqueEmail("change-pw") });
    const here = await signInCookie(auth, account);
    await signInCookie(auth, account);
    await signInCookie(auth, account);
    // Not reachable from a browser; called the way the server would, without asking to revoke.
    const res = await auth.handler(
      authPost(
        "/change-password",
        { currentPassword: account.password, newPassword: "another-password-9" },
        { cookie: here, ip: uniqueIp() },
      ),
    );
    expect(res.status).toBe(200);
    const left = await db.select().from(session).where(eq(session.userId, account.id));
    expect(left).toHaveLength(1);
  });
});
