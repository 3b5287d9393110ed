import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpMailer, type Mailer } from "~/adapters/mail/index.server.ts";
import { user, userProfiles } from "~/db/schema.ts";
import { formPost, TEST_ORIGIN, uniqueEmail, uniqueIp } from "../../../tests/support/accounts.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { type Auth, createAuth } from "./auth.server.ts";
import { register, resendVerification, signIn, VERIFIED_CALLBACK } from "./credentials.server.ts";

/*
 * With SMTP_URL set, account e-mails leave through SMTP: a real SMTP server (the smtp-server
 * package, listening on a local port) receives the verification e-mail of a new registration.
 */

type Received = { from: string; to: string[]; raw: string };

let t: TestDatabase;
let server: SMTPServer;
let mailer: Mailer;
let auth: Auth;
const received: Received[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A mailbox that refuses mail, to see what a failed send does.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("refused-")) {
        callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, "LayerKart <shop@layerkart.test>");
  auth = createAuth({
    db: t.db,
    mailer,
    secret: "integration-secret-integration-secret-0123",
    publicUrl: TEST_ORIGIN,
  });
});

afterAll(async () => {
  await mailer?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.destroy();
});

describe(`SMTP delivery on ${testDbKind()}`, () => {
  it("delivers the verification e-mail of a new account to the SMTP server", async () => {
    expect(mailer.kind).toBe("smtp");
    const email = uniqueEmail("smtp");
    const result = await register(auth, formPost("/auth", {}, { ip: uniqueIp() }), {
      firstName: "Asha",
      lastName: "Rao",
      email,
      password: "a-good-password-1",
      confirmPassword: "a-good-password-1",
    });
    expect(result).toEqual({ ok: true });

    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [message] = received;
    expect(message.from).toBe("shop@layerkart.test");
    expect(message.to).toEqual([email]);
    const parsed = await simpleParser(message.raw);
    expect(parsed.subject).toBe("Verify your email for LayerKart");
    expect(parsed.text).toContain("Hi Asha Rao,");
    expect(typeof parsed.html === "string" && parsed.html.includes("Verify email")).toBe(true);

    // The link verifies the account and lands on the sign-in page with its success message.
    const link = parsed.text?.match(/https?:\/\/\S+/)?.[0] ?? "";
    expect(link.startsWith(`${TEST_ORIGIN}/api/auth/verify-email?token=`)).toBe(true);
    expect(new URL(link).searchParams.get("callbackURL")).toBe(VERIFIED_CALLBACK);
    const res = await auth.handler(new Request(link));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(VERIFIED_CALLBACK);
    const [account] = await t.db.select().from(user).where(eq(user.email, email));
    expect(account.emailVerified).toBe(true);
    const [profile] = await t.db
      .select()
      .from(userProfiles)
      .where(eq(userProfiles.userId, account.id));
    expect(profile).toMatchObject({ displayName: "Asha Rao", isEmailVerified: true });
  });

  it("a failed send is only warned about on registration; a resend says it failed", async () => {
    const email = uniqueEmail("refused");
    const input = {
      firstName: "Ravi",
      lastName: "Kumar",
      email,
      password: "a-good-password-1",
      confirmPassword: "a-good-password-1",
    };
    const before = received.length;
    expect(await register(auth, formPost("/auth", {}, { ip: uniqueIp() }), input)).toEqual({
      ok: true,
    });
    // Signing in still says "not verified" (its fresh e-mail fails quietly too).
    expect(await signIn(auth, formPost("/auth", {}, { ip: uniqueIp() }), input)).toEqual({
      status: "unverified",
    });
    const resend = await resendVerification(auth, formPost("/auth", {}, { ip: uniqueIp() }), email);
    expect(resend.ok).toBe(false);
    expect(received.length).toBe(before);
  });
});
