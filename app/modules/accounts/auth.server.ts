import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/index.server.ts";
import { env } from "~/config/env.server.ts";
import { account, rateLimit, session, user, userProfiles, verification } from "~/db/schema.ts";
import { CLIENT_IP_HEADER } from "~/lib/client-ip.ts";
import { log } from "~/lib/log.server.ts";
import { SIGN_IN_THROTTLED_MESSAGE, signInThrottle } from "~/lib/rate-limit.server.ts";
import { accountNameSchema } from "~/rules/account-schemas.ts";
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

/**
 * Better Auth's endpoints a browser may reach (routes/api.auth.$.ts): the ones behind the shop's
 * own screens (registration, sign-in and out, verification, password reset). The rest — changing
 * the name, e-mail or password, listing sessions (with their tokens), reading the session, deleting
 * the account — the shop either does itself, with its own rules, or doesn't offer (issue 20); the
 * server calls what it needs through `auth.api`, which this list doesn't limit.
 */
export const BROWSER_AUTH_ENDPOINTS: ReadonlyArray<{ method: "GET" | "POST"; path: RegExp }> = [
  { method: "POST", path: /^\/sign-up\/email$/ },
  { method: "POST", path: /^\/sign-in\/email$/ },
  { method: "POST", path: /^\/sign-out$/ },
  { method: "POST", path: /^\/send-verification-email$/ },
  { method: "GET", path: /^\/verify-email$/ },
  { method: "POST", path: /^\/request-password-reset$/ },
  { method: "GET", path: /^\/reset-password\/[^/]+$/ },
  { method: "POST", path: /^\/reset-password$/ },
  { method: "GET", path: /^\/(ok|error)$/ },
];

/** Whether a request to /api/auth/… may reach Better Auth from a browser. */
export function isBrowserAuthEndpoint(method: string, pathname: string): boolean {
  const path = pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return BROWSER_AUTH_ENDPOINTS.some((e) => e.method === method && e.path.test(path));
}

const clientIp = (headers: Headers | undefined) => headers?.get(CLIENT_IP_HEADER) ?? "unknown";

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
      // The throttle tells a locked-out customer to reset: a new password lifts the account's
      // own count of wrong guesses.
      async onPasswordReset({ user: u }) {
        if (limit) await signInThrottle(db).passwordReset(u.email);
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
        // A flood guard only: wrong passwords are counted per account and per address in the
        // hooks below, so that one address can't lock out everyone behind it.
        "/sign-in/email": { window: 60, max: 60 },
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
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-up/email") {
          // The shop's registration rules for anyone who calls the endpoint directly too: a name,
          // not a message to put in the shop's verification e-mail; no picture (issue 20).
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          if ("image" in body) {
            throw new APIError("BAD_REQUEST", { message: "A picture can't be set here." });
          }
          const name = accountNameSchema.safeParse(body.name);
          if (!name.success) {
            throw new APIError("BAD_REQUEST", { message: name.error.issues[0].message });
          }
          return { context: { body: { ...body, name: name.data } } };
        }
        if (ctx.path === "/change-password") {
          // Not reachable from a browser; should the server ever call it, a new password still
          // signs out every other session, as a reset does.
          return { context: { body: { ...(ctx.body ?? {}), revokeOtherSessions: true } } };
        }
        if (ctx.path === "/sign-in/email" && limit) {
          const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? "");
          const wait = await signInThrottle(db).wait(clientIp(ctx.headers), email);
          if (wait !== null) {
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: SIGN_IN_THROTTLED_MESSAGE, code: "TOO_MANY_ATTEMPTS" },
              { "Retry-After": String(wait) },
            );
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email") return;
        const returned = ctx.context.returned;
        if (limit) {
          const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? "");
          const throttle = signInThrottle(db);
          if (returned instanceof APIError) {
            // A wrong password (or unknown e-mail) counts; an unverified account's right one
            // doesn't.
            if (returned.statusCode === 401) await throttle.failed(clientIp(ctx.headers), email);
          } else {
            await throttle.succeeded(clientIp(ctx.headers), email);
          }
        }
        // The session token travels only in the HttpOnly cookie, never in a body a script can
        // read (Better Auth's sign-in answer carries it too).
        if (returned && typeof returned === "object" && "token" in returned) {
          return ctx.json({ ...(returned as Record<string, unknown>), token: null });
        }
      }),
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
