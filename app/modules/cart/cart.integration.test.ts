import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, products } from "~/db/schema.ts";
import {
  browserHeaders,
  createVerifiedUser,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { apiPost, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import {
  clearCart,
  getCart,
  InvalidQuantityError,
  removeCartItem,
  setAllCartItems,
  setCartItem,
  UnknownProductError,
} from "./cart.server.ts";

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let lotus: Awaited<ReturnType<typeof insertProduct>>;
let fidget: Awaited<ReturnType<typeof insertProduct>>;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  lotus = await insertProduct(db, { name: "Lotus Tealight Holder", pricePaise: 34_900 });
  fidget = await insertProduct(db, { name: "Geared Spinner Fidget", pricePaise: 19_900 });
});
afterAll(async () => {
  await harness?.stop();
});

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  return { ...account, cookie: await signInCookie(harness.rt.auth, account) };
}

const api = () => import("~/routes/api.cart.ts");
const post = async (body: Record<string, unknown>, cookie?: string, json = false) =>
  outcome(async () =>
    (await api()).action(routeArgs(apiPost("/api/cart", body, { cookie, json })) as never),
  );
const get = async (cookie?: string) =>
  outcome(async () => (await api()).loader(routeArgs(pageGet("/api/cart", { cookie })) as never));

describe(`stored cart module on ${testDbKind()}`, () => {
  it("set-all replaces the cart; lines carry the product's current details", async () => {
    const { id } = await customer("setall");
    await setCartItem(db, id, fidget.id, 4);
    await setAllCartItems(db, id, [
      { productId: lotus.id, quantity: 2 },
      { productId: lotus.id, quantity: 3 },
    ]);
    const cart = await getCart(db, id);
    expect(cart).toHaveLength(1);
    expect(cart[0]).toMatchObject({
      productId: lotus.id,
      quantity: 3,
      name: "Lotus Tealight Holder",
      pricePaise: 34_900,
      category: "3D Prints",
      image: "/images/test.png",
    });
    expect(Number.isNaN(Date.parse(cart[0].addedAt))).toBe(false);

    // A price change shows at once: nothing of the price is stored with the line.
    await db.update(products).set({ pricePaise: 36_000 }).where(eq(products.id, lotus.id));
    expect((await getCart(db, id))[0].pricePaise).toBe(36_000);
    await db.update(products).set({ pricePaise: 34_900 }).where(eq(products.id, lotus.id));
  });

  it("set adds or changes a line, 0 removes it; remove and clear empty it", async () => {
    const { id } = await customer("set");
    await setCartItem(db, id, lotus.id, 1);
    // A minute back: two lines added in one millisecond would tie on "oldest first" (then the
    // order is by the random product id). Changing the quantity below keeps the line's place.
    await db
      .update(cartItems)
      .set({ addedAt: new Date(Date.now() - 60_000) })
      .where(and(eq(cartItems.userId, id), eq(cartItems.productId, lotus.id)));
    await setCartItem(db, id, lotus.id, 5);
    await setCartItem(db, id, fidget.id, 2);
    expect((await getCart(db, id)).map((l) => [l.productId, l.quantity])).toEqual([
      [lotus.id, 5],
      [fidget.id, 2],
    ]);
    await setCartItem(db, id, lotus.id, 0);
    expect((await getCart(db, id)).map((l) => l.productId)).toEqual([fidget.id]);
    await removeCartItem(db, id, fidget.id);
    expect(await getCart(db, id)).toEqual([]);
    await setAllCartItems(db, id, [{ productId: lotus.id, quantity: 1 }]);
    await clearCart(db, id);
    expect(await getCart(db, id)).toEqual([]);
  });

  it("refuses quantities outside 1..99 and unknown products, leaving the cart as it was", async () => {
    const { id } = await customer("refuse");
    await setCartItem(db, id, lotus.id, 2);
    for (const q of [-1, 100, 1.5]) {
      await expect(setCartItem(db, id, lotus.id, q)).rejects.toBeInstanceOf(InvalidQuantityError);
    }
    await expect(
      setAllCartItems(db, id, [
        { productId: fidget.id, quantity: 1 },
        { productId: fidget.id, quantity: 0 },
      ]),
    ).rejects.toThrow(InvalidQuantityError);
    await expect(setCartItem(db, id, UNKNOWN, 1)).rejects.toBeInstanceOf(UnknownProductError);
    // A bad quantity refuses the whole set-all, its good line too: the old cart stays.
    expect((await getCart(db, id)).map((l) => [l.productId, l.quantity])).toEqual([[lotus.id, 2]]);
  });

  it("set-all leaves out a line whose product or variant is gone, keeps the rest and says which", async () => {
    // A sign-in's merge of a browser's cart that still holds a product deleted since, and a
    // variant that isn't the product's: the customer's other lines must reach the stored cart.
    const { id } = await customer("stale");
    await setCartItem(db, id, lotus.id, 2);
    const stale = [
      { productId: UNKNOWN, quantity: 1 },
      { productId: fidget.id, variantId: UNKNOWN, quantity: 3 },
    ];
    const { dropped } = await setAllCartItems(db, id, [
      { productId: lotus.id, quantity: 2 },
      stale[0],
      { productId: fidget.id, quantity: 1 },
      stale[1],
    ]);
    expect(dropped).toEqual(stale);
    expect((await getCart(db, id)).map((l) => [l.productId, l.quantity])).toEqual([
      [lotus.id, 2],
      [fidget.id, 1],
    ]);
  });
});

describe(`/api/cart on ${testDbKind()}`, () => {
  it("answers 401 JSON to a visitor, for reads and changes", async () => {
    expect(await get()).toMatchObject({ status: 401, body: { error: "Sign in required" } });
    expect(await post({ intent: "clear" })).toMatchObject({ status: 401 });
  });

  it("set-all (form or JSON), set, remove and clear act on the session's cart", async () => {
    const a = await customer("api");
    const lines = [
      { productId: lotus.id, quantity: 2, pricePaise: 1 },
      { productId: fidget.id, quantity: 1 },
    ];
    const saved = await post({ intent: "set-all", lines }, a.cookie);
    expect(saved.status).toBe(200);
    // The price the browser sent is ignored.
    expect(saved.body).toMatchObject({
      ok: true,
      lines: [
        { productId: lotus.id, quantity: 2, pricePaise: 34_900 },
        { productId: fidget.id, quantity: 1, pricePaise: 19_900 },
      ],
    });
    await post({ intent: "set", productId: fidget.id, quantity: 7 }, a.cookie, true);
    await post({ intent: "remove", productId: lotus.id }, a.cookie);
    expect((await get(a.cookie)).body).toMatchObject({
      lines: [{ productId: fidget.id, quantity: 7 }],
    });
    await post({ intent: "set", productId: fidget.id, quantity: "0" }, a.cookie);
    expect((await get(a.cookie)).body).toEqual({ lines: [] });
    // A line whose product is gone is left out, and the answer says so.
    const withGone = await post(
      {
        intent: "set-all",
        lines: [
          { productId: lotus.id, quantity: 1 },
          { productId: UNKNOWN, quantity: 1 },
        ],
      },
      a.cookie,
    );
    expect(withGone).toMatchObject({
      status: 200,
      body: {
        ok: true,
        lines: [{ productId: lotus.id, quantity: 1 }],
        dropped: [{ productId: UNKNOWN, variantId: null }],
      },
    });
    await post({ intent: "clear" }, a.cookie);
    expect((await get(a.cookie)).body).toEqual({ lines: [] });
  });

  it("answers 400 to bad input and changes nothing", async () => {
    const a = await customer("bad");
    await setCartItem(db, a.id, lotus.id, 3);
    const bad: Array<Record<string, unknown>> = [
      { intent: "explode" },
      {},
      { intent: "set", productId: lotus.id, quantity: 100 },
      { intent: "set", productId: lotus.id, quantity: -1 },
      { intent: "set", productId: lotus.id, quantity: "two" },
      { intent: "set", productId: "not-a-uuid", quantity: 1 },
      { intent: "set", productId: UNKNOWN, quantity: 1 },
      { intent: "set-all", lines: "not json" },
      { intent: "set-all", lines: [{ productId: lotus.id, quantity: 0 }] },
      { intent: "remove" },
    ];
    for (const body of bad) {
      const res = await post(body, a.cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // Bodies that aren't a form or JSON, or are broken, are 400 too, never 500.
    for (const [type, body] of [
      ["text/plain", "intent=clear"],
      ["application/json", "{"],
      ["multipart/form-data; boundary=x", "--nope"],
    ]) {
      const headers = browserHeaders({
        origin: "http://localhost:3000",
        site: "same-origin",
        cookie: a.cookie,
      });
      headers.set("content-type", type);
      const request = new Request("http://localhost:3000/api/cart", {
        method: "POST",
        headers,
        body,
      });
      const res = await outcome(async () => (await api()).action(routeArgs(request) as never));
      expect(res.status, type).toBe(400);
    }
    expect((await getCart(db, a.id)).map((l) => [l.productId, l.quantity])).toEqual([
      [lotus.id, 3],
    ]);
  });

  it("a customer's changes never touch another customer's cart", async () => {
    const a = await customer("owner-a");
    const b = await customer("owner-b");
    await setAllCartItems(db, b.id, [{ productId: lotus.id, quantity: 4 }]);
    // A names B's product and even B's user id: only A's own cart changes.
    await post({ intent: "set", productId: lotus.id, quantity: 9, userId: b.id }, a.cookie);
    await post({ intent: "remove", productId: lotus.id, uid: b.id }, a.cookie);
    await post({ intent: "set-all", lines: [{ productId: fidget.id, quantity: 1 }] }, a.cookie);
    await post({ intent: "clear", userId: b.id }, a.cookie);
    expect((await getCart(db, b.id)).map((l) => [l.productId, l.quantity])).toEqual([
      [lotus.id, 4],
    ]);
    // And A's read shows only A's cart.
    expect((await get(a.cookie)).body).toEqual({ lines: [] });
  });

  it("refuses a change the browser marks as cross-site", async () => {
    const a = await customer("csrf");
    const request = apiPost(
      "/api/cart",
      { intent: "clear" },
      { cookie: a.cookie, site: "cross-site" },
    );
    await setCartItem(db, a.id, lotus.id, 1);
    const res = await outcome(async () => (await api()).action(routeArgs(request) as never));
    expect(res.status).toBe(403);
    expect(await getCart(db, a.id)).toHaveLength(1);
  });
});
