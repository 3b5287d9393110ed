import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/index.server.ts";
import { account, rateLimit, session, user, userProfiles, verification } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { passwordResetEmail, verificationEmail } from "./emails.ts";

/** The header our own server sets from the connection (or the trusted proxy); clients can't. */
export const CLIENT_IP_HEADER = "x-layerkart-client-ip";

export type AuthOptions = {
  db: Database;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  /** When false (tests of other features), auth endpoints are not rate-limited. */
  rateLimit?: boolean;
};

export function createAuth({
  db,
  mailer,
  secret,
  publicUrl,
  rateLimit: limit = true,
}: AuthOptions) {
  return betterAuth({
    appName: "LayerKart",
    secret,
    baseURL: publicUrl,
    basePath: "/api/auth",
    trustedOrigins: [publicUrl],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification, rateLimit },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user: u, url }) {
        const mail = passwordResetEmail(u.name, url);
        await mailer.send({ to: u.email, ...mail });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      async sendVerificationEmail({ user: u, url }) {
        const mail = verificationEmail(u.name, url);
        try {
          await mailer.send({ to: u.email, ...mail });
        } catch (error) {
          // A failed send is only warned about (SPEC.md §4); the user can ask for another.
          log.warning("verification email not sent", { error, userId: u.id });
        }
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: limit,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 10 },
        "/request-password-reset": { window: 60, max: 5 },
        "/send-verification-email": { window: 60, max: 5 },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: publicUrl.startsWith("https://"),
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          async after(created) {
            // Every account has a shop profile, created with null defaults (SPEC.md §4).
            await db
              .insert(userProfiles)
              .values({
                userId: created.id,
                displayName: created.name || null,
                email: created.email,
                isEmailVerified: created.emailVerified,
              })
              .onConflictDoNothing();
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
