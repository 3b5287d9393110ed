import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/index.server.ts";
import { env } from "~/config/env.server.ts";
import { account, rateLimit, session, user, userProfiles, verification } from "~/db/schema.ts";
import { CLIENT_IP_HEADER } from "~/lib/client-ip.ts";
import { log } from "~/lib/log.server.ts";
import type { AdminRuleConfig } from "~/rules/admin-rule.ts";
import { passwordResetEmail, verificationEmail } from "./emails.ts";
import { syncProfileOnSignIn, syncProfileVerified } from "./profile.server.ts";

export { CLIENT_IP_HEADER };

export type AuthOptions = {
  db: Database;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  /**
   * PUBLIC_URL is not set: the shop answers on any address it is reached at (127.0.0.1, the
   * machine's LAN address when the owner tries it on a phone), so sign-in must too. A request's
   * own origin is trusted besides publicUrl: a page of the shop, whatever its address, may sign in;
   * a page of another site still may not (its Origin is not the address it sent the request to).
   */
  anyAddress?: boolean;
  /** When false (tests of other features), auth endpoints are not rate-limited. */
  rateLimit?: boolean;
  /** Who becomes an admin on sign-in; defaults to ADMIN_EMAILS / ADMIN_EMAIL_DOMAIN. */
  admins?: AdminRuleConfig;
};

/** The process's admin rule, read when first needed (the runtime has parsed env() by then). */
function configuredAdmins(): AdminRuleConfig {
  try {
    const { adminEmails, adminEmailDomain } = env();
    return { adminEmails, adminEmailDomain };
  } catch (error) {
    log.warning("admin rule unavailable: no account is made admin on sign-in", { error });
    return { adminEmails: [], adminEmailDomain: "" };
  }
}

/** Only an explicit request for another verification e-mail reports a failed send. */
const isResendRequest = (request: Request | undefined) =>
  request ? new URL(request.url).pathname.endsWith("/send-verification-email") : false;

export function createAuth({
  db,
  mailer,
  secret,
  publicUrl,
  anyAddress = false,
  rateLimit: limit = true,
  admins,
}: AuthOptions) {
  return betterAuth({
    appName: "LayerKart",
    secret,
    baseURL: publicUrl,
    basePath: "/api/auth",
    trustedOrigins: anyAddress
      ? (request) => [publicUrl, request ? new URL(request.url).origin : null]
      : [publicUrl],
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
      async sendVerificationEmail({ user: u, url }, request) {
        const mail = verificationEmail(u.name, url);
        try {
          await mailer.send({ to: u.email, ...mail });
        } catch (error) {
          // On registration and sign-in a failed send is only warned about (SPEC.md §4): the
          // dialog that follows offers to resend. The resend itself says that it failed.
          log.warning("verification email not sent", { error, userId: u.id });
          if (isResendRequest(request)) throw error;
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
      // Better Auth skips its origin check when NODE_ENV=test; the shop never does.
      disableOriginCheck: false,
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
        update: {
          async after(updated) {
            await syncProfileVerified(db, updated).catch((error) =>
              log.warning("profile not updated after account change", { error }),
            );
          },
        },
      },
      session: {
        create: {
          async after(created) {
            // On every sign-in: copy the verified flag and apply the admin rule. A failure here
            // must not stop the sign-in (SPEC.md §4: "failure ignored").
            await syncProfileOnSignIn(db, created.userId, admins ?? configuredAdmins()).catch(
              (error) => log.warning("profile not updated on sign-in", { error }),
            );
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
