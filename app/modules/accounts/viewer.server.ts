import { createHmac, timingSafeEqual } from "node:crypto";
import { type AnyColumn, eq, type SQL } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { session, user, userProfiles } from "~/db/schema.ts";
import type { Auth } from "./auth.server.ts";

/** What finding the viewer needs: the auth instance and the database. */
export type ViewerDeps = { auth: Auth; db: Database };

/** Who is making the request, as the shop sees them; null when signed out. */
export type Viewer = { id: string; name: string; email: string; isAdmin: boolean };

/**
 * Other modules' facts about the viewer, read in the same query as the session on the common path:
 * each a SQL expression of the user's id (a column), written by the module that owns its table.
 */
export type ViewerExtras = Record<string, (userId: AnyColumn) => SQL>;

/** The viewer with the extras' values, when the one-query path answered (else `extras` is null). */
export type ViewerWith<E extends ViewerExtras> = {
  viewer: Viewer | null;
  extras: { [K in keyof E]: unknown } | null;
};

// The root loader, guards and page loaders all ask who the viewer is; within one request the
// answer is looked up once (each loader of a request receives the same Request object).
const viewerOfRequest = new WeakMap<Request, Promise<ViewerWith<ViewerExtras>>>();

export function getViewer(rt: ViewerDeps, request: Request): Promise<Viewer | null> {
  return getViewerWith(rt, request, {}).then((found) => found.viewer);
}

/**
 * The viewer, and on the one-query path the extras read in the same query. The first look-up of a
 * request decides: a later call with other extras gets `extras: null` and reads them itself.
 */
export function getViewerWith<E extends ViewerExtras>(
  rt: ViewerDeps,
  request: Request,
  extras: E,
): Promise<ViewerWith<E>> {
  let found = viewerOfRequest.get(request);
  if (!found) {
    found = lookUpViewer(rt, request, extras);
    viewerOfRequest.set(request, found);
    // A failed look-up is not remembered.
    found.catch(() => viewerOfRequest.delete(request));
    return found as Promise<ViewerWith<E>>;
  }
  return found.then((f) =>
    f.extras && Object.keys(extras).every((k) => k in (f.extras ?? {}))
      ? (f as ViewerWith<E>)
      : { viewer: f.viewer, extras: null },
  );
}

/**
 * The viewer of a Cookie header in one query with the extras, or undefined when that header is
 * not the common case (Better Auth must judge it: render the page in full).
 */
export async function quickViewerWith<E extends ViewerExtras>(
  rt: ViewerDeps,
  cookies: string,
  extras: E,
): Promise<{ viewer: Viewer; extras: { [K in keyof E]: unknown } } | undefined> {
  const found = await quickViewer(rt, cookies, extras);
  return (found ?? undefined) as
    | { viewer: Viewer; extras: { [K in keyof E]: unknown } }
    | undefined;
}

async function lookUpViewer(
  rt: ViewerDeps,
  request: Request,
  extras: ViewerExtras,
): Promise<ViewerWith<ViewerExtras>> {
  const cookies = request.headers.get("cookie");
  // No cookie, no session: nothing to ask the database.
  if (!cookies) return { viewer: null, extras: null };
  const quick = await quickViewer(rt, cookies, extras);
  if (quick !== undefined) return quick ?? { viewer: null, extras: null };
  return { viewer: await slowViewer(rt, request), extras: null };
}

/** Better Auth's own look-up, then the profile. */
async function slowViewer(rt: ViewerDeps, request: Request): Promise<Viewer | null> {
  const found = await rt.auth.api.getSession({ headers: request.headers });
  if (!found) return null;
  const [profile] = await rt.db
    .select({ displayName: userProfiles.displayName, isAdmin: userProfiles.isAdmin })
    .from(userProfiles)
    .where(eq(userProfiles.userId, found.user.id));
  return {
    id: found.user.id,
    name: profile?.displayName ?? found.user.name,
    email: found.user.email,
    isAdmin: profile?.isAdmin ?? false,
  };
}

/**
 * The common case in one query: a correctly signed session cookie whose session is current and
 * not yet due for Better Auth's daily extension. Session, account and profile are read together
 * (Better Auth's own look-up takes two queries, the profile a third). null: no session cookie at
 * all (Better Auth answers no session). undefined: anything else (a signature that doesn't check
 * out, no such session, expired, due for extension, a cookie Better Auth would tidy up) is left
 * to Better Auth's getSession, which does what it always does.
 */
async function quickViewer(
  rt: ViewerDeps,
  cookies: string,
  extras: ViewerExtras,
): Promise<{ viewer: Viewer; extras: Record<string, unknown> } | null | undefined> {
  const ctx = await rt.auth.$context;
  const names = ctx.authCookies;
  const values = cookieValues(cookies, [
    names.sessionToken.name,
    names.sessionData.name,
    names.dontRememberToken.name,
  ]);
  const signed = values.get(names.sessionToken.name);
  if (signed === undefined) {
    // Better Auth expires a stale session-data cookie even when signed out: its path.
    return values.has(names.sessionData.name) ? undefined : null;
  }
  if (
    signed === null ||
    values.has(names.sessionData.name) ||
    values.has(names.dontRememberToken.name)
  ) {
    return undefined;
  }
  // A signature that doesn't check out is Better Auth's to judge (it answers no session, without a
  // query): should its cookie format ever change, customers stay signed in on the slower path.
  const token = verifiedToken(signed, ctx.secret);
  if (token === null) return undefined;
  const [row] = await rt.db
    .select({
      expiresAt: session.expiresAt,
      userId: user.id,
      userName: user.name,
      email: user.email,
      displayName: userProfiles.displayName,
      isAdmin: userProfiles.isAdmin,
      ...Object.fromEntries(
        Object.entries(extras).map(([name, of]) => [`extra_${name}`, of(session.userId)]),
      ),
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, session.userId))
    .where(eq(session.token, token));
  if (!row) return undefined;
  const now = Date.now();
  const expiresAt = row.expiresAt.getTime();
  const { expiresIn, updateAge } = ctx.sessionConfig;
  // Expired (Better Auth deletes it) or due for extension (Better Auth writes the new date).
  if (expiresAt <= now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
  const columns = row as unknown as Record<string, unknown>;
  return {
    viewer: {
      id: row.userId,
      name: row.displayName ?? row.userName,
      email: row.email,
      isAdmin: row.isAdmin ?? false,
    },
    extras: Object.fromEntries(Object.keys(extras).map((name) => [name, columns[`extra_${name}`]])),
  };
}

/**
 * The values of the named cookies in a Cookie header, URL-decoded; null for a name that occurs
 * more than once or can't be decoded (such a header is left to Better Auth).
 */
export function cookieValues(header: string, names: string[]): Map<string, string | null> {
  const found = new Map<string, string | null>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!names.includes(name)) continue;
    if (found.has(name)) {
      found.set(name, null);
      continue;
    }
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length > 1)
      value = value.slice(1, -1);
    try {
      found.set(name, decodeURIComponent(value));
    } catch {
      found.set(name, null);
    }
  }
  return found;
}

/**
 * The session token of a signed cookie value ("token.signature", the signature an HMAC-SHA256
 * of the token with the auth secret, base64), as Better Auth signs it; null when the signature
 * is not the secret's.
 */
export function verifiedToken(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  if (given.length !== expected.length || given.toString("base64") !== signature) return null;
  return timingSafeEqual(given, expected) ? token : null;
}
