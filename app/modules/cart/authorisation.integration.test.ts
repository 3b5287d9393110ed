import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { favourites } from "~/db/schema.ts";
import { addFavourite, listFavouriteIds } from "~/modules/favourites/favourites.server.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * Favourites act on the session's user only, and /favourites loads nothing without a session
 * (the cart and review endpoints have their own checks beside their modules).
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
});
afterAll(async () => {
  await harness?.stop();
});

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  return { ...account, cookie: await signInCookie(harness.rt.auth, account) };
}

const page = () => import("~/routes/favourites.tsx");
const favouritesApi = () => import("~/routes/api.favourites.ts");

describe(`favourites on ${testDbKind()}`, () => {
  it("/favourites shows a visitor the sign-in state and loads nothing", async () => {
    const res = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/favourites")) as never),
    );
    expect(res).toMatchObject({ status: 200, body: { signedIn: false, favourites: [] } });
  });

  it("/favourites lists only the session user's favourites, newest first", async () => {
    const a = await customer("fav-a");
    const b = await customer("fav-b");
    const dragon = await insertProduct(db, { name: "Dragon Miniature", category: "3D Characters" });
    const lamp = await insertProduct(db, { name: "Moon Lamp" });
    await addFavourite(db, a.id, dragon.id);
    // A minute apart: two favourites added in one millisecond would make "newest first" a coin toss.
    await db
      .update(favourites)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(and(eq(favourites.userId, a.id), eq(favourites.productId, dragon.id)));
    await addFavourite(db, a.id, lamp.id);
    await addFavourite(db, b.id, lamp.id);
    const mine = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/favourites", { cookie: a.cookie })) as never),
    );
    expect(mine.body).toMatchObject({
      signedIn: true,
      favourites: [
        { productId: lamp.id, name: "Moon Lamp" },
        { productId: dragon.id, name: "Dragon Miniature", category: "3D Characters" },
      ],
    });
    const empty = await customer("fav-empty");
    const none = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/favourites", { cookie: empty.cookie })) as never),
    );
    expect(none.body).toEqual({ signedIn: true, favourites: [] });
  });

  it("a toggle changes only the session user's favourites; a visitor gets 401", async () => {
    const a = await customer("tog-a");
    const b = await customer("tog-b");
    const product = await insertProduct(db);
    await addFavourite(db, b.id, product.id);
    const remove = formPost(
      "/api/favourites",
      { intent: "remove", productId: product.id, userId: b.id },
      { cookie: a.cookie },
    );
    expect(
      await outcome(async () => (await favouritesApi()).action(routeArgs(remove) as never)),
    ).toMatchObject({ status: 200 });
    expect(await listFavouriteIds(db, b.id)).toEqual([product.id]);

    const anonymous = formPost("/api/favourites", { intent: "add", productId: product.id });
    expect(
      await outcome(async () => (await favouritesApi()).action(routeArgs(anonymous) as never)),
    ).toMatchObject({ status: 401, body: { error: "Sign in required" } });
  });
});
