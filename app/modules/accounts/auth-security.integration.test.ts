import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboxMailer } from "~/adapters/mail/index.server.ts";
import { formRateLimits, rateLimit, user, userProfiles, verification } from "~/db/schema.ts";
import { SIGN_IN_THROTTLED_MESSAGE } from "~/lib/rate-limit.server.ts";
import { accountText } from "~/rules/account-schemas.ts";
import {
  authPost,
  browserHeaders,
  createVerifiedUser,
  formPost,
  signInCookie,
  TEST_ORIGIN,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { type Auth, createAuth } from "./auth.server.ts";
import { register, requestPasswordReset, resetPassword, signIn } from "./credentials.server.ts";

let t: TestDatabase;
let dir: string;
let auth: Auth;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "lk-auth-"));
  auth = createAuth({
    db: t.db,
    mailer: createOutboxMailer(path.join(dir, "outbox"), "shop@localhost"),
    secret: "integration-secret-integration-secret-0123",
    publicUrl: TEST_ORIGIN,
    admins: { adminEmails: ["owner@example.com"], adminEmailDomain: "layerkart.test" },
  });
});
afterAll(async () => {
  await t?.destroy();
  await rm(dir, { recursive: true, force: true });
});

const badLogin = (email: string, ip: string) =>
  auth.handler(authPost("/sign-in/email", { email, password: "wrong-password-1" }, { ip }));

describe(`auth endpoints on ${testDbKind()}`, () => {
  it("rate-limits rapid bad logins from one address, in the database, not other addresses", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("victim") });
    const attacker = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await badLogin(account.email, attacker)).status);
    // Ten wrong passwords at one account from one address, then that address waits (the shop's
    // per-address-and-account count; Better Auth's own 60 a minute is only a flood guard).
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);

    // The counter lives in the shared database (several app instances see the same count).
    const [{ n }] = await t.db.select({ n: count() }).from(rateLimit);
    expect(n).toBeGreaterThan(0);

    // Someone else, from another address, is not locked out.
    expect((await badLogin(account.email, uniqueIp())).status).toBe(401);
    await expect(signInCookie(auth, account)).resolves.toContain("session_token=");

    // The shop's own sign-in form goes through the same limiter, and says why.
    const viaForm = await signIn(auth, formPost("/auth", {}, { ip: attacker }), {
      email: account.email,
      password: account.password,
    });
    expect(viaForm).toEqual({ status: "throttled", message: SIGN_IN_THROTTLED_MESSAGE });
  });

  it("counts wrong passwords per account and address: one address doesn't lock out everyone behind it", async () => {
    const victim = await createVerifiedUser(auth, t.db, { email: uniqueEmail("pair-victim") });
    const neighbour = await createVerifiedUser(auth, t.db, { email: uniqueEmail("pair-other") });
    const shared = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await badLogin(victim.email, shared)).status).toBe(401);
    // This address has used up its tries at this account...
    expect((await badLogin(victim.email, shared)).status).toBe(429);
    // ...but someone else behind the same address signs in with their right password.
    await expect(signInCookie(auth, neighbour, shared)).resolves.toContain("session_token=");
    // Counted in the shared database, so every instance sees the same count.
    const [{ n }] = await t.db.select({ n: count() }).from(formRateLimits);
    expect(n).toBeGreaterThan(0);
  });

  it("counts wrong passwords per account from anywhere: many addresses can't share the guessing", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("spread") });
    // The owner has signed in from home before.
    const home = uniqueIp();
    await expect(signInCookie(auth, account, home)).resolves.toContain("session_token=");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await badLogin(account.email, uniqueIp())).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
    // Even the right password waits, from a new address: a guess that happened to be right
    // would look the same.
    const res = await auth.handler(
      authPost(
        "/sign-in/email",
        { email: account.email.toUpperCase(), password: account.password },
        { ip: uniqueIp() },
      ),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    // A stranger can't lock the owner out that way: from an address the account has signed in
    // from before, the right password still works...
    await expect(signInCookie(auth, account, home)).resolves.toContain("session_token=");
    // ...and a password reset (as the throttle's message suggests) lifts the account's count for
    // every address.
    await requestPasswordReset(
      auth,
      formPost("/forgot-password", {}, { ip: uniqueIp() }),
      account.email,
    );
    const token = (await t.db.select().from(verification))
      .find((r) => r.value === account.id && r.identifier.startsWith("reset-password:"))
      ?.identifier.slice("reset-password:".length);
    const reset = await resetPassword(auth, formPost("/reset-password", {}, { ip: uniqueIp() }), {
      token: token!,
      password: "a-fresh-password-7",
    });
    expect(reset).toEqual({ ok: true });
    await expect(
      signInCookie(auth, { email: account.email, password: "a-fresh-password-7" }, uniqueIp()),
    ).resolves.toContain("session_token=");
  });

  it("refuses a cross-origin sign-in, through the API and through the sign-in form", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("csrf") });
    const body = { email: account.email, password: account.password };

    const crossSite = await auth.handler(
      authPost("/sign-in/email", body, {
        ip: uniqueIp(),
        origin: "https://evil.example",
        site: "cross-site",
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);

    // With a cookie present (a signed-in victim), a foreign Origin is refused too.
    const withCookie = await auth.handler(
      authPost("/sign-in/email", body, {
        ip: uniqueIp(),
        origin: "https://evil.example",
        cookie: "better-auth.session_token=whatever",
      }),
    );
    expect(withCookie.status).toBe(403);

    const viaForm = await signIn(
      auth,
      formPost("/auth", {}, { ip: uniqueIp(), origin: "https://evil.example", site: "cross-site" }),
      body,
    );
    expect(viaForm.status).toBe("failed");

    // The same request from the shop's own origin signs in.
    const sameSite = await signIn(auth, formPost("/auth", {}, { ip: uniqueIp() }), body);
    expect(sameSite.status).toBe("signed-in");
  });

  it("does not reveal whether an account exists", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("taken") });
    const input = {
      firstName: "Someone",
      lastName: "Else",
      email: account.email,
      password: "another-password-1",
      confirmPassword: "another-password-1",
    };
    const again = await register(auth, formPost("/auth", {}, { ip: uniqueIp() }), input);
    const fresh = await register(auth, formPost("/auth", {}, { ip: uniqueIp() }), {
      ...input,
      email: uniqueEmail("new"),
    });
    expect(again).toEqual({ ok: true });
    expect(fresh).toEqual({ ok: true });

    const known = await requestPasswordReset(auth, formPost("/forgot-password", {}), account.email);
    const unknown = await requestPasswordReset(
      auth,
      formPost("/forgot-password", {}, { ip: uniqueIp() }),
      uniqueEmail("nobody"),
    );
    expect(known).toEqual({ ok: true });
    expect(unknown).toEqual({ ok: true });

    const wrongPassword = await signIn(auth, formPost("/auth", {}, { ip: uniqueIp() }), {
      email: account.email,
      password: "not-it-at-all",
    });
    const noAccount = await signIn(auth, formPost("/auth", {}, { ip: uniqueIp() }), {
      email: uniqueEmail("ghost"),
      password: "not-it-at-all",
    });
    expect(wrongPassword).toEqual({ status: "incorrect" });
    expect(noAccount).toEqual({ status: "incorrect" });
  });

  it("an unverified sign-in is refused and sends a fresh verification e-mail", async () => {
    const email = uniqueEmail("unverified");
    const input = {
      firstName: "Asha",
      lastName: "Rao",
      email,
      password: "a-good-password-1",
      confirmPassword: "a-good-password-1",
    };
    expect(await register(auth, formPost("/auth", {}, { ip: uniqueIp() }), input)).toEqual({
      ok: true,
    });
    const outbox = path.join(dir, "outbox");
    const before = (await readdir(outbox)).length;
    const result = await signIn(auth, formPost("/auth", {}, { ip: uniqueIp() }), input);
    expect(result).toEqual({ status: "unverified" });
    expect((await readdir(outbox)).length).toBe(before + 1);
  });

  it("on sign-in the profile records the verified e-mail and the admin rule grants admin", async () => {
    const customer = await createVerifiedUser(auth, t.db, { email: uniqueEmail("shopper") });
    const listed = await createVerifiedUser(auth, t.db, { email: "owner@example.com" });
    const staff = await createVerifiedUser(auth, t.db, {
      email: uniqueEmail("x").replace("example.com", "layerkart.test"),
    });
    const lookalike = await createVerifiedUser(auth, t.db, {
      email: uniqueEmail("y").replace("example.com", "evil-layerkart.test"),
    });
    const profile = async (id: string) =>
      (await t.db.select().from(userProfiles).where(eq(userProfiles.userId, id)))[0];

    expect((await profile(customer.id)).isEmailVerified).toBe(false);
    for (const account of [customer, listed, staff, lookalike]) await signInCookie(auth, account);

    expect(await profile(customer.id)).toMatchObject({ isEmailVerified: true, isAdmin: false });
    expect(await profile(listed.id)).toMatchObject({ isAdmin: true });
    expect(await profile(staff.id)).toMatchObject({ isAdmin: true });
    expect(await profile(lookalike.id)).toMatchObject({ isAdmin: false });

    // The rule only grants: an admin made by hand stays one.
    await t.db
      .update(userProfiles)
      .set({ isAdmin: true })
      .where(eq(userProfiles.userId, customer.id));
    await signInCookie(auth, customer);
    expect((await profile(customer.id)).isAdmin).toBe(true);
  });

  it("a password reset revokes every session and only the new password works", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("reset") });
    const cookie = await signInCookie(auth, account);
    // The token is what the e-mailed link carries; read it where Better Auth stored it.
    await requestPasswordReset(
      auth,
      formPost("/forgot-password", {}, { ip: uniqueIp() }),
      account.email,
    );
    const rows = await t.db.select().from(verification);
    const token = rows
      .find((r) => r.value === account.id && r.identifier.startsWith("reset-password:"))
      ?.identifier.slice("reset-password:".length);
    expect(token).toBeTruthy();
    const done = await resetPassword(auth, formPost("/reset-password", {}, { ip: uniqueIp() }), {
      token: token!,
      password: "the-new-password-9",
    });
    expect(done).toEqual({ ok: true });
    const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session).toBeNull();
    await expect(signInCookie(auth, account)).rejects.toThrow(/401/);
    await expect(
      signInCookie(auth, { email: account.email, password: "the-new-password-9" }),
    ).resolves.toContain("session_token=");
  });
});

/** A form POST from the shop's page as opened at `origin` (its Origin and its own address). */
const formPostAt = (origin: string, options: { cookie?: string; from?: string } = {}) => {
  const headers = browserHeaders({
    ip: uniqueIp(),
    origin: options.from ?? origin,
    site: options.from ? "cross-site" : "same-origin",
    // A browser that has been on the shop carries its cookies: Better Auth checks Origin then.
    cookie: options.cookie ?? "lk-theme=light",
  });
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(`${origin}/auth`, { method: "POST", headers, body: "" });
};

describe(`the shop's address on ${testDbKind()}`, () => {
  const LOOPBACK = "http://127.0.0.1:3000";
  const LAN = "http://192.168.1.20:3000";
  const registration = (email: string) => ({
    firstName: "Asha",
    lastName: "Rao",
    email,
    password: "a-good-password-1",
    confirmPassword: "a-good-password-1",
  });

  it("without PUBLIC_URL: register and sign in on 127.0.0.1, the LAN address and localhost", async () => {
    const anywhere = createAuth({
      db: t.db,
      mailer: createOutboxMailer(path.join(dir, "outbox"), "shop@localhost"),
      secret: "integration-secret-integration-secret-0123",
      publicUrl: TEST_ORIGIN,
      anyAddress: true,
    });
    for (const origin of [LOOPBACK, LAN, TEST_ORIGIN]) {
      const email = uniqueEmail("anywhere");
      expect(await register(anywhere, formPostAt(origin), registration(email)), origin).toEqual({
        ok: true,
      });
      await t.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
      const result = await signIn(anywhere, formPostAt(origin), {
        email,
        password: "a-good-password-1",
      });
      expect(result.status, origin).toBe("signed-in");
    }
    // Same-origin is still enforced: another site's page sending to the shop is refused.
    const account = await createVerifiedUser(anywhere, t.db, { email: uniqueEmail("target") });
    const crossSite = await signIn(
      anywhere,
      formPostAt(LOOPBACK, { from: "https://evil.example" }),
      {
        email: account.email,
        password: account.password,
      },
    );
    expect(crossSite).toEqual({ status: "failed" });
    const forged = await register(
      anywhere,
      formPostAt(LAN, { from: "http://192.168.1.21:3000" }),
      registration(uniqueEmail("forged")),
    );
    expect(forged.ok).toBe(false);
  });

  it("with PUBLIC_URL: another address is told which address to use", async () => {
    const account = await createVerifiedUser(auth, t.db, { email: uniqueEmail("fixed") });
    const message = accountText.wrongAddress(TEST_ORIGIN);
    expect(message).toContain("http://localhost:3000");
    const registered = await register(auth, formPostAt(LOOPBACK), registration(uniqueEmail("r")));
    expect(registered).toEqual({ ok: false, message });
    const signedIn = await signIn(auth, formPostAt(LAN), account);
    expect(signedIn).toEqual({ status: "failed", message });
    // At the printed address, both work.
    expect((await signIn(auth, formPostAt(TEST_ORIGIN), account)).status).toBe("signed-in");
  });
});
