import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { user, userProfiles } from "~/db/schema.ts";
import { type Auth, CLIENT_IP_HEADER } from "~/modules/accounts/auth.server.ts";
import { accountNameSchema } from "~/rules/account-schemas.ts";
import { createPostgresDatabase, testDbKind } from "./test-database.ts";

/*
 * Users, sign-in and request helpers for the integration tests (never imported by the app). Requests go through
 * Better Auth's HTTP handler, as a browser's would.
 */

export const TEST_ORIGIN = "http://localhost:3000";

export type RequestOptions = {
  ip?: string;
  cookie?: string;
  origin?: string;
  /** Sec-Fetch-Site as a browser sends it. */
  site?: "same-origin" | "cross-site";
};

export function browserHeaders(options: RequestOptions = {}): Headers {
  const headers = new Headers();
  headers.set(CLIENT_IP_HEADER, options.ip ?? "198.51.100.1");
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.origin !== undefined) headers.set("origin", options.origin);
  if (options.site) {
    headers.set("sec-fetch-site", options.site);
    headers.set("sec-fetch-mode", "cors");
    headers.set("sec-fetch-dest", "empty");
  }
  return headers;
}

/** A JSON POST to one of Better Auth's endpoints, e.g. "/sign-in/email". */
export function authPost(endpoint: string, body: unknown, options: RequestOptions = {}): Request {
  const headers = browserHeaders({ origin: TEST_ORIGIN, site: "same-origin", ...options });
  headers.set("content-type", "application/json");
  return new Request(`${TEST_ORIGIN}/api/auth${endpoint}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** A form POST to one of the shop's pages, as a browser without JavaScript sends it. */
export function formPost(
  pathname: string,
  fields: Record<string, string>,
  options: RequestOptions = {},
): Request {
  const headers = browserHeaders({ origin: TEST_ORIGIN, site: "same-origin", ...options });
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(`${TEST_ORIGIN}${pathname}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
  });
}

export function pageGet(pathname: string, options: RequestOptions = {}): Request {
  return new Request(`${TEST_ORIGIN}${pathname}`, { headers: browserHeaders(options) });
}

/** Route module arguments for a request (loaders and actions read only `request` here). */
export const routeArgs = (request: Request) =>
  ({ request, params: {}, context: {} }) as unknown as {
    request: Request;
    params: never;
    context: never;
  };

/**
 * Runs a route's loader or action and reports what the browser would get: a status, a redirect
 * target, and the data. Thrown responses and `data()` results count like returned ones.
 */
export async function outcome(
  run: () => Promise<unknown>,
): Promise<{ status: number; location: string | null; body: unknown }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: value.status, location: value.headers.get("location"), body };
  }
  if (value && typeof value === "object" && "init" in value && "data" in value) {
    const init = (value as { init?: { status?: number } | null }).init;
    return { status: init?.status ?? 200, location: null, body: (value as { data: unknown }).data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, location: null, body: value };
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieFrom(res: Response | Headers): string {
  const headers = res instanceof Response ? res.headers : res;
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

let counter = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;
/** A client address of its own, so one test's requests never trip another's rate limit. */
export const uniqueIp = () => {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
};

/** Registers an account and marks its e-mail verified (the link itself is tested elsewhere). */
export async function createVerifiedUser(
  auth: Auth,
  db: Database,
  input: { email: string; password?: string; name?: string },
): Promise<{ id: string; email: string; password: string }> {
  const password = input.password ?? "correct-horse-battery";
  const name = input.name ?? "Test Customer";
  // A name sign-up refuses (a test of how a hostile stored name is shown, say in a CSV export) is
  // written into the account afterwards, as an older account might hold it.
  const acceptable = accountNameSchema.safeParse(name).success;
  const res = await auth.handler(
    authPost(
      "/sign-up/email",
      { name: acceptable ? name : "Test Customer", email: input.email, password },
      { ip: uniqueIp() },
    ),
  );
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const [row] = await db
    .update(user)
    .set({ emailVerified: true, ...(acceptable ? {} : { name }) })
    .where(eq(user.email, input.email.toLowerCase()))
    .returning({ id: user.id });
  if (!acceptable) {
    await db.update(userProfiles).set({ displayName: name }).where(eq(userProfiles.userId, row.id));
  }
  return { id: row.id, email: input.email, password };
}

/** Signs in through the HTTP endpoint and returns the session cookie. */
export async function signInCookie(
  auth: Auth,
  account: { email: string; password: string },
  ip = uniqueIp(),
): Promise<string> {
  const res = await auth.handler(
    authPost("/sign-in/email", { email: account.email, password: account.password }, { ip }),
  );
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieFrom(res);
}

/**
 * Starts the process runtime (the one route modules use) on a fresh database of this test
 * project's kind, with the given extra environment. Call the returned stop() in afterAll.
 */
export async function startProcessRuntime(extraEnv: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "lk-accounts-"));
  const postgres = testDbKind() === "postgres" ? await createPostgresDatabase() : undefined;
  const saved = { ...process.env };
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DATABASE_URL: postgres?.url ?? "",
    SEED_DEMO: "never",
    PUBLIC_URL: TEST_ORIGIN,
    AUTH_SECRET: "integration-secret-integration-secret-0123",
    LOG_LEVEL: "error",
    ...extraEnv,
  });
  const { runtime, stopRuntime } = await import("~/runtime.server.ts");
  const rt = await runtime();
  return {
    rt,
    async stop() {
      await stopRuntime();
      process.env = saved;
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
