import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, userProfiles } from "~/db/schema.ts";
import { currentQueryCount, runWithRequestId } from "~/lib/request-context.server.ts";
import {
  addFavourite,
  favouriteIdsFrom,
  favouriteIdsOf,
} from "~/modules/favourites/favourites.server.ts";
import {
  createVerifiedUser,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { getViewer, getViewerWith, quickViewerWith } from "./viewer.server.ts";

/*
 * Who the viewer is, as every signed-in page asks: a current session in one query (session,
 * account and profile together), everything else as Better Auth decides it.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let account: { id: string; email: string; password: string };
let cookie: string;

const request = (cookieHeader: string | null) =>
  new Request("http://localhost/products", {
    headers: cookieHeader === null ? {} : { cookie: cookieHeader },
  });

/** The viewer and how many queries finding it took. */
function lookUp(cookieHeader: string | null) {
  return runWithRequestId("viewer-test", async () => {
    const viewer = await getViewer(harness.rt, request(cookieHeader));
    return { viewer, queries: currentQueryCount() };
  });
}

const tokenOf = (c: string) =>
  decodeURIComponent(/session_token=([^;]+)/.exec(c)?.[1] ?? "").split(".")[0];

beforeAll(async () => {
  harness = await startProcessRuntime();
  const { auth, db } = harness.rt;
  account = await createVerifiedUser(auth, db, { email: uniqueEmail("viewer"), name: "Meera" });
  await db
    .update(userProfiles)
    .set({ displayName: "Meera Iyer" })
    .where(eq(userProfiles.userId, account.id));
  cookie = await signInCookie(auth, account);
});
afterAll(async () => {
  await harness?.stop();
});

describe(`the viewer of a request on ${testDbKind()}`, () => {
  it("a current session: the profile's name, found in one query", async () => {
    const { viewer, queries } = await lookUp(`theme=dark; ${cookie}; lk_cart=2`);
    expect(viewer).toEqual({
      id: account.id,
      name: "Meera Iyer",
      email: account.email,
      isAdmin: false,
    });
    expect(queries).toBe(1);
  });

  it("with the favourites, still in one query (decision 0026); Better Auth's cases read them apart", async () => {
    const product = await insertProduct(harness.rt.db, { name: "Viewer Test Lamp" });
    await addFavourite(harness.rt.db, account.id, product.id);
    const found = await runWithRequestId("viewer-extras", async () => {
      const f = await getViewerWith(harness.rt, request(cookie), { favouriteIds: favouriteIdsOf });
      return { ...f, queries: currentQueryCount() };
    });
    expect(found.viewer?.id).toBe(account.id);
    expect(favouriteIdsFrom(found.extras?.favouriteIds)).toEqual([product.id]);
    expect(found.queries).toBe(1);
    const none = await quickViewerWith(harness.rt, `${cookie}x`, { favouriteIds: favouriteIdsOf });
    expect(none).toBeUndefined();
  });

  it("no cookie, other cookies only, or a session cookie with a wrong signature: nobody, no query", async () => {
    for (const header of [null, "theme=dark; lk_cart=2", cookie.replace(/\.([^.;]{10})/, ".x$1")]) {
      expect(await lookUp(header)).toEqual({ viewer: null, queries: 0 });
    }
  });

  it("a signed-out (deleted) session is nobody", async () => {
    const other = await signInCookie(harness.rt.auth, account);
    await harness.rt.db.delete(session).where(eq(session.token, tokenOf(other)));
    expect((await lookUp(other)).viewer).toBeNull();
  });

  it("an expired session is nobody, and Better Auth removes it", async () => {
    const other = await signInCookie(harness.rt.auth, account);
    const token = tokenOf(other);
    await harness.rt.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, token));
    expect((await lookUp(other)).viewer).toBeNull();
    expect(await harness.rt.db.select().from(session).where(eq(session.token, token))).toEqual([]);
  });

  it("a session due for its daily extension is extended by Better Auth, as before", async () => {
    const other = await signInCookie(harness.rt.auth, account);
    const token = tokenOf(other);
    // Signed in two days ago: 28 of its 30 days left.
    const old = new Date(Date.now() + 28 * 24 * 3600 * 1000);
    await harness.rt.db.update(session).set({ expiresAt: old }).where(eq(session.token, token));
    expect((await lookUp(other)).viewer?.name).toBe("Meera Iyer");
    const [row] = await harness.rt.db.select().from(session).where(eq(session.token, token));
    expect(row.expiresAt.getTime()).toBeGreaterThan(old.getTime() + 24 * 3600 * 1000);
  });

  it("a cookie header with the session cookie twice is left to Better Auth", async () => {
    const { viewer } = await lookUp(`${cookie}; ${cookie}`);
    expect(viewer?.id).toBe(account.id);
  });
});
