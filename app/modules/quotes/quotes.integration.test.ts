import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, orderItems, products, quotes } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import {
  getCart,
  setAllCartItems,
  setCartItem,
  UnknownProductError,
} from "~/modules/cart/cart.server.ts";
import { checkoutLines, placeOrder } from "~/modules/checkout/checkout.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import {
  box,
  cube,
  merged,
  openBox,
  to3mf,
  to3mfObjects,
  toBinaryStl,
} from "~/rules/model3d/testing/shapes.ts";
import {
  defaultQuoteRates,
  priceQuote,
  quoteProblemText,
  quoteText,
} from "~/rules/quote-pricing.ts";
import {
  browserHeaders,
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { answerQuote } from "./quotes.server.ts";

/*
 * Custom-print quotes below the browser: the server measures and prices every model itself, a
 * quoted part is its owner's alone (cart, file, checkout), and checkout sells it only on a valid,
 * unexpired quote at the verified price.
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

const uploadRoute = () => import("~/routes/api.quotes.upload.ts");
const pageRoute = () => import("~/routes/custom-printing.tsx");
const modelRoute = () => import("~/routes/quotes.$id.model.ts");
const cartProductsRoute = () => import("~/routes/api.cart-products.ts");

const home = {
  label: "Home" as const,
  name: "Asha Rao",
  line1: "12 MG Road",
  line2: null,
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, home);
  return { ...account, addressId, cookie: await signInCookie(harness.rt.auth, account) };
}

function uploadRequest(name: string, bytes: Uint8Array, cookie?: string) {
  const headers = browserHeaders({
    origin: TEST_ORIGIN,
    site: "same-origin",
    cookie,
    ip: uniqueIp(),
  });
  headers.set("content-type", "application/octet-stream");
  return new Request(`${TEST_ORIGIN}/api/quotes/upload?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers,
    body: bytes as unknown as BodyInit,
  });
}

async function upload(
  cookie: string,
  name = "cube.stl",
  bytes = toBinaryStl(cube(10)),
  query = "",
) {
  const { action } = await uploadRoute();
  const request = uploadRequest(name, bytes, cookie);
  return outcome(() =>
    action({
      request: query ? new Request(`${request.url}${query}`, request) : request,
    } as never),
  );
}

type UploadedPart = {
  id: string;
  fileName: string;
  geometry: { volume: number; part?: { kind: string; index: number; of: number } };
};
const partsOf = (r: { body: unknown }) => (r.body as { quotes: UploadedPart[] }).quotes;

const pla = {
  materialId: "pla",
  colour: "Black",
  infillPercent: "20",
  layerHeight: "0.2",
  quantity: "3",
  unit: "mm",
  scalePercent: "100",
};

async function pageAction(cookie: string, fields: Record<string, string>) {
  const { action } = await pageRoute();
  return outcome(() =>
    action({ request: formPost("/custom-printing", fields, { cookie }), params: {} } as never),
  );
}

const quoteIdOf = (r: { body: unknown }) => (r.body as { quote: { id: string } }).quote.id;

describe(`custom quotes (${testDbKind()})`, () => {
  it("the server measures an uploaded model, keeps it privately and refuses a broken one", async () => {
    const a = await customer("quote-upload");
    const anonymous = await uploadRoute().then(({ action }) =>
      outcome(() => action({ request: uploadRequest("cube.stl", toBinaryStl(cube(10))) } as never)),
    );
    expect(anonymous.status).toBe(401);

    const ok = await upload(a.cookie);
    expect(ok.status).toBe(200);
    const q = (ok.body as { quote: { id: string; geometry: Record<string, unknown> } }).quote;
    expect(q.geometry).toMatchObject({ format: "stl", triangles: 12, watertight: true });
    expect(q.geometry.volume as number).toBeCloseTo(1000, 6);
    const [row] = await db.select().from(quotes).where(eq(quotes.id, q.id));
    expect(row.userId).toBe(a.id);
    expect(await harness.rt.privateFiles.exists(row.storagePath)).toBe(true);
    // Not reachable as a public upload.
    expect(await harness.rt.storage.exists(row.storagePath)).toBe(false);

    const before = (await db.select().from(quotes).where(eq(quotes.userId, a.id))).length;
    const broken = await upload(a.cookie, "broken.stl", new TextEncoder().encode("solid x\nfacet"));
    expect(broken.status).toBe(400);
    expect((broken.body as { error: string }).error).toMatch(
      /^This file is not a valid STL file: /,
    );
    const png = await upload(a.cookie, "photo.stl", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]));
    expect((png.body as { error: string }).error).toBe(
      "This file is not a valid STL file: it is a PNG image.",
    );
    const txt = await upload(a.cookie, "notes.txt", new TextEncoder().encode("hello"));
    expect((txt.body as { error: string }).error).toBe(
      "Please upload an STL, OBJ, 3MF or PLY file.",
    );
    expect((await db.select().from(quotes).where(eq(quotes.userId, a.id))).length).toBe(before);

    const huge = uploadRequest("big.stl", new Uint8Array(8), a.cookie);
    huge.headers.set("content-length", String(101 * 1024 * 1024));
    const tooBig = await uploadRoute().then(({ action }) =>
      outcome(() => action({ request: huge } as never)),
    );
    expect(tooBig.status).toBe(413);
    expect((tooBig.body as { error: string }).error).toBe(
      "This file is larger than 100 MB. Please upload a smaller file.",
    );
  });

  it("prices on the server, puts the part in the owner's cart at its quantity and sells it once", async () => {
    const a = await customer("quote-order");
    const quoteId = quoteIdOf(await upload(a.cookie));
    // A price, status or owner in the form is not read.
    const added = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId,
      ...pla,
      unitPricePaise: "1",
      pricePaise: "1",
      status: "ordered",
      userId: "someone-else",
    });
    expect(added.status).toBe(200);
    const line = (
      added.body as { line: { productId: string; pricePaise: number; quantity: number } }
    ).line;
    const expected = priceQuote(
      { volume: 1000, area: 600, size: { x: 10, y: 10, z: 10 }, watertight: true },
      { ...pla, infillPercent: 20, layerHeight: 0.2, quantity: 3, unit: "mm", scalePercent: 100 },
      defaultQuoteRates,
    ).breakdown;
    expect(line.pricePaise).toBe(expected.unitPricePaise);
    expect(line.quantity).toBe(3);
    // Its parcel for the shipping rate: the quote's grams and size (10 mm cube) plus packing.
    const [part] = await db.select().from(products).where(eq(products.id, line.productId));
    expect(part).toMatchObject({
      weightGrams: Math.ceil(expected.grams) + 100,
      boxLengthCm: 5,
      boxWidthCm: 5,
      boxHeightCm: 5,
    });
    const cart = await getCart(db, a.id);
    expect(cart).toEqual([expect.objectContaining({ productId: line.productId, quantity: 3 })]);

    // The quantity is the quote's, whatever the browser sends.
    await setCartItem(db, a.id, line.productId, 7);
    expect((await getCart(db, a.id))[0].quantity).toBe(3);

    // The part is no catalogue product: not listed for anyone but its owner.
    const { loader } = await cartProductsRoute();
    const forA = await outcome(() =>
      loader({
        request: pageGet(`/api/cart-products?id=${line.productId}`, { cookie: a.cookie }),
      } as never),
    );
    expect((forA.body as { products: Array<{ isActive: boolean }> }).products).toEqual([
      expect.objectContaining({ id: line.productId, isActive: true }),
    ]);
    const anon = await outcome(() =>
      loader({ request: pageGet(`/api/cart-products?id=${line.productId}`) } as never),
    );
    expect((anon.body as { products: unknown[] }).products).toEqual([]);

    expect((await checkoutLines(db, a.id))[0]).toMatchObject({ available: true });
    await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: null });
    const order = await placeOrder(db, {
      userId: a.id,
      addressId: a.addressId,
      method: "cod",
      provider: "sandbox",
      attemptToken: `quote-${quoteId}`,
    });
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(items).toEqual([
      expect.objectContaining({
        productId: line.productId,
        quantity: 3,
        unitPricePaise: line.pricePaise,
      }),
    ]);
    const [after] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
    expect(after).toMatchObject({ status: "ordered", orderId: order.id });
    // Ordered: it can't go back into a cart or be priced again.
    await expect(setCartItem(db, a.id, line.productId, 3)).rejects.toBeInstanceOf(
      UnknownProductError,
    );
    const again = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    expect(again.status).toBe(409);
  });

  it("prices the unit the customer chose for a file without one, keeps it, and a 3MF's own unit wins", async () => {
    const a = await customer("quote-units");
    // 1 × 1 × 0.5 in the file: 25.4 × 25.4 × 12.7 mm if the file is in inches.
    const stlId = quoteIdOf(await upload(a.cookie, "inch.stl", toBinaryStl(box(1, 1, 0.5))));
    const inches = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId: stlId,
      ...pla,
      unit: "inch",
    });
    expect(inches.status).toBe(200);
    const [stl] = await db.select().from(quotes).where(eq(quotes.id, stlId));
    expect(stl.options).toMatchObject({ unit: "inch" });
    const k = 25.4;
    const expected = priceQuote(
      { volume: 0.5 * k ** 3, area: 4 * k ** 2, size: { x: k, y: k, z: k / 2 }, watertight: true },
      { ...pla, infillPercent: 20, layerHeight: 0.2, quantity: 3, unit: "mm", scalePercent: 100 },
      defaultQuoteRates,
    ).breakdown;
    expect(stl.unitPricePaise).toBe(expected.unitPricePaise);

    // A 3MF in inches is already millimetres: a form saying "inch" again is not applied twice.
    const mfId = quoteIdOf(
      await upload(a.cookie, "inch.3mf", to3mf(box(1, 1, 0.5), { unit: "inch" })),
    );
    await pageAction(a.cookie, { intent: "add-to-cart", quoteId: mfId, ...pla, unit: "inch" });
    const [mf] = await db.select().from(quotes).where(eq(quotes.id, mfId));
    expect(mf.geometry.fileUnit).toBe("mm");
    expect(mf.options).toMatchObject({ unit: "mm" });
    expect(mf.unitPricePaise).toBe(expected.unitPricePaise);
  });

  it("a file of two bodies is measured body by body and priced as two parts", async () => {
    const a = await customer("quote-bodies");
    // Two 20 mm cubes 400 mm apart: as one box 420 mm long they fit no printer; as two parts, both.
    const two = merged(cube(20), box(20, 20, 20, { offset: [400, 0, 0] }));
    const quoteId = quoteIdOf(await upload(a.cookie, "two.stl", toBinaryStl(two)));
    const [row] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
    expect(row.geometry.bodyCount).toBe(2);
    expect(row.geometry.bodies?.map((b) => b.size)).toEqual([
      { x: 20, y: 20, z: 20 },
      { x: 20, y: 20, z: 20 },
    ]);
    const added = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    expect(added.status).toBe(200);
    const one = { volume: 8000, area: 2400, size: { x: 20, y: 20, z: 20 } };
    const expected = priceQuote(
      {
        ...one,
        size: { x: 420, y: 20, z: 20 },
        watertight: true,
        bodyCount: 2,
        bodies: [one, one],
      },
      { ...pla, infillPercent: 20, layerHeight: 0.2, quantity: 3, unit: "mm", scalePercent: 100 },
      defaultQuoteRates,
    ).breakdown;
    expect(expected.setupPaise).toBe(2 * defaultQuoteRates.setupFeePaise);
    expect((added.body as { line: { pricePaise: number } }).line.pricePaise).toBe(
      expected.unitPricePaise,
    );
    expect((await checkoutLines(db, a.id))[0]).toMatchObject({ available: true });
  });

  it("a project of three parts goes into the cart as three lines at the server's prices, in one step", async () => {
    const a = await customer("quote-project");
    // A 3MF with two objects is two parts; an STL one more.
    const plate = await upload(
      a.cookie,
      "plate.3mf",
      to3mfObjects([
        { mesh: cube(10) },
        { mesh: box(60, 60, 60), transform: "1 0 0 0 1 0 0 0 1 100 0 0" },
      ]),
    );
    expect(plate.status).toBe(200);
    const [small, big] = partsOf(plate);
    expect(small.geometry.part).toEqual({ kind: "object", index: 0, of: 2 });
    expect(big.geometry.part).toEqual({ kind: "object", index: 1, of: 2 });
    expect(big.fileName).toBe("plate (part 2 of 2).3mf");
    expect(small.geometry.volume).toBeCloseTo(1000, 3);
    expect(big.geometry.volume).toBeCloseTo(216000, 3);
    const [rowA, rowB] = await db
      .select()
      .from(quotes)
      .where(inArray(quotes.id, [small.id, big.id]));
    // One file kept once for both parts.
    expect(rowA.storagePath).toBe(rowB.storagePath);
    const [stl] = partsOf(await upload(a.cookie, "stand.stl", toBinaryStl(box(40, 20, 10))));

    const options = (materialId: string, colour: string, quantity: number) => ({
      materialId,
      colour,
      infillPercent: 20,
      layerHeight: 0.2,
      quantity,
      unit: "mm",
      scalePercent: 100,
    });
    const project = [
      { quoteId: small.id, ...options("pla", "Black", 2), pricePaise: 1 },
      { quoteId: big.id, ...options("petg", "White", 1), unitPricePaise: 1 },
      { quoteId: stl.id, ...options("pla", "White", 4), totalPaise: 1 },
    ];
    const added = await pageAction(a.cookie, {
      intent: "add-project",
      parts: JSON.stringify(project),
    });
    expect(added.status).toBe(200);
    const lines = (
      added.body as {
        lines: Array<{ productId: string; name: string; pricePaise: number; quantity: number }>;
      }
    ).lines;
    expect(lines).toHaveLength(3);
    const expectedPrice = (x: number, y: number, z: number, o: ReturnType<typeof options>) =>
      priceQuote(
        {
          volume: x * y * z,
          area: 2 * (x * y + y * z + x * z),
          size: { x, y, z },
          watertight: true,
        },
        { ...o, unit: "mm" },
        defaultQuoteRates,
      ).breakdown.unitPricePaise;
    // Each line at its own part's price, whatever price the browser sent.
    expect(lines.map((l) => l.pricePaise)).toEqual([
      expectedPrice(10, 10, 10, options("pla", "Black", 2)),
      expectedPrice(60, 60, 60, options("petg", "White", 1)),
      expectedPrice(40, 20, 10, options("pla", "White", 4)),
    ]);
    expect(lines[1].pricePaise).toBeGreaterThan(lines[0].pricePaise);
    expect(lines.map((l) => l.name)).toEqual([
      "Custom print: plate (part 1 of 2) (PLA, Black)",
      "Custom print: plate (part 2 of 2) (PETG, White)",
      "Custom print: stand (PLA, White)",
    ]);
    const cart = await getCart(db, a.id);
    expect(cart.map((c) => [c.productId, c.quantity]).sort()).toEqual(
      lines.map((l) => [l.productId, l.quantity]).sort(),
    );
    expect(lines.map((l) => l.quantity)).toEqual([2, 1, 4]);
    const checked = await checkoutLines(db, a.id);
    expect(checked).toHaveLength(3);
    expect(checked.every((l) => l.available)).toBe(true);
  });

  it("a project is added whole or not at all, and a model split by body is one part per body", async () => {
    const a = await customer("quote-project-refused");
    const two = merged(cube(10), box(20, 20, 20, { offset: [50, 0, 0] }));
    const split = await upload(a.cookie, "two.stl", toBinaryStl(two), "&split=body");
    expect(split.status).toBe(200);
    const [first, second] = partsOf(split);
    expect(partsOf(split)).toHaveLength(2);
    expect([first.geometry.volume, second.geometry.volume].map(Math.round)).toEqual([1000, 8000]);
    expect(second.geometry.part).toEqual({ kind: "body", index: 1, of: 2 });

    const b = await customer("quote-project-other");
    const [theirs] = partsOf(await upload(b.cookie));
    const part = (quoteId: string) => ({ quoteId, ...pla });
    // Someone else's part in the project: nothing goes in.
    const refused = await pageAction(a.cookie, {
      intent: "add-project",
      parts: JSON.stringify([part(first.id), part(theirs.id)]),
    });
    expect(refused.status).toBe(404);
    expect(await getCart(db, a.id)).toEqual([]);
    // The same part twice, no parts, and a damaged list are refused at the edge.
    for (const parts of [JSON.stringify([part(first.id), part(first.id)]), "[]", "{not json"]) {
      const bad = await pageAction(a.cookie, { intent: "add-project", parts });
      expect(bad.status).toBe(400);
    }
    expect(await getCart(db, a.id)).toEqual([]);
    const ok = await pageAction(a.cookie, {
      intent: "add-project",
      parts: JSON.stringify([part(first.id), part(second.id)]),
    });
    expect(ok.status).toBe(200);
    expect(await getCart(db, a.id)).toHaveLength(2);
  });

  it("the server checks walls and overhangs: a wall too thin is refused with what would fix it, and staff see the findings", async () => {
    const a = await customer("quote-walls");
    const thinId = quoteIdOf(await upload(a.cookie, "fin.stl", toBinaryStl(box(20, 0.4, 10))));
    const [thin] = await db.select().from(quotes).where(eq(quotes.id, thinId));
    expect(thin.geometry.printability?.walls[0][0]).toBeCloseTo(0.4, 4);
    const refused = await pageAction(a.cookie, { intent: "add-to-cart", quoteId: thinId, ...pla });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toBe(quoteProblemText["thin-walls"]);
    // Twice the size, the wall is 0.8 mm: PLA prints it.
    const doubled = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId: thinId,
      ...pla,
      scalePercent: "200",
    });
    expect(doubled.status).toBe(200);

    const { getQuoteForAdmin, listQuotesForAdmin } = await import("./quotes.server.ts");
    const reviewed = await pageAction(a.cookie, {
      intent: "request-review",
      quoteId: thinId,
      note: "Can you print it at this size?",
      ...pla,
    });
    expect(reviewed.status).toBe(200);
    const listed = (await listQuotesForAdmin(db, "open")).find((q) => q.id === thinId);
    // Drawn standing on its 20 × 0.4 mm edge, it is printed lying on its 20 × 10 mm face.
    expect(listed?.findings).toEqual([
      "Walls as thin as 0.4 mm (PLA needs 0.8 mm)",
      "Printed turned onto its largest flat face",
    ]);
    expect((await getQuoteForAdmin(db, thinId))?.findings).toEqual(listed?.findings);
  });

  it("another customer can't price, download or buy someone's quote", async () => {
    const a = await customer("quote-owner");
    const b = await customer("quote-other");
    const quoteId = quoteIdOf(await upload(a.cookie));
    const added = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    const productId = (added.body as { line: { productId: string } }).line.productId;

    const byB = await pageAction(b.cookie, { intent: "add-to-cart", quoteId, ...pla });
    expect(byB.status).toBe(404);
    expect(await pageAction(b.cookie, { intent: "accept-offer", quoteId })).toMatchObject({
      status: 404,
    });
    await expect(setCartItem(db, b.id, productId, 1)).rejects.toBeInstanceOf(UnknownProductError);
    // Nor in a whole-cart write: the part is left out, not written.
    expect(await setAllCartItems(db, b.id, [{ productId, quantity: 1 }])).toEqual({
      dropped: [{ productId, quantity: 1 }],
    });
    expect(await getCart(db, b.id)).toEqual([]);

    const { loader } = await modelRoute();
    const get = (cookie?: string) =>
      outcome(() =>
        loader({
          request: pageGet(`/quotes/${quoteId}/model`, { cookie }),
          params: { id: quoteId },
        } as never),
      );
    expect((await get(b.cookie)).status).toBe(404);
    expect((await get()).status).toBe(302);
    const own = await get(a.cookie);
    expect(own.status).toBe(200);

    // B's page lists only B's quotes.
    const page = await pageRoute().then(({ loader: l }) =>
      outcome(() => l({ request: pageGet("/custom-printing", { cookie: b.cookie }) } as never)),
    );
    expect((page.body as { quotes: unknown[] }).quotes).toEqual([]);
  });

  it("checkout refuses a part whose price was changed or whose quote expired", async () => {
    const a = await customer("quote-verify");
    const quoteId = quoteIdOf(await upload(a.cookie));
    const added = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    const productId = (added.body as { line: { productId: string } }).line.productId;
    const base = {
      userId: a.id,
      addressId: a.addressId,
      method: "gateway" as const,
      provider: "sandbox",
    };

    await db.update(products).set({ pricePaise: 100 }).where(eq(products.id, productId));
    await expect(placeOrder(db, base)).rejects.toMatchObject({
      code: "quote",
      description: "A custom part's price has changed.",
    });
    expect((await checkoutLines(db, a.id))[0].available).toBe(false);

    // Re-pricing sets it right; an expired hold is refused.
    await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    await db
      .update(quotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(quotes.id, quoteId));
    await expect(placeOrder(db, base)).rejects.toMatchObject({
      code: "quote",
      description: quoteText.expired,
    });
  });

  it("a model that can't be priced goes to staff, whose offer the customer buys", async () => {
    const a = await customer("quote-review");
    const quoteId = quoteIdOf(await upload(a.cookie, "box.stl", toBinaryStl(openBox(20))));
    const refused = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toMatch(/open or non-manifold edges/);

    const asked = await pageAction(a.cookie, {
      intent: "request-review",
      quoteId,
      note: "Please close the top.",
      ...pla,
    });
    expect(asked.status).toBe(200);
    expect(
      await pageAction(a.cookie, { intent: "request-review", quoteId, note: "again" }),
    ).toMatchObject({ status: 409 });

    const admin = await createVerifiedUser(harness.rt.auth, db, {
      email: uniqueEmail("quote-admin"),
    });
    const staff = { ...admin, isAdmin: true } as never;
    await answerQuote(
      { db, jobs: harness.rt.jobRunner, publicUrl: harness.rt.env.publicUrl },
      staff,
      quoteId,
      { kind: "offer", message: "We can close it for you.", unitPricePaise: 85_000, quantity: 2 },
    );
    const outbox = path.join(harness.rt.env.dataDir, "outbox");
    const mails = await Promise.all(
      (await readdir(outbox)).map((f) => readFile(path.join(outbox, f), "utf8")),
    );
    expect(
      mails.some((m) => m.includes("Your custom print quote: box.stl") && m.includes(a.email)),
    ).toBe(true);

    const accepted = await pageAction(a.cookie, { intent: "accept-offer", quoteId });
    expect(accepted.status).toBe(200);
    const line = (
      accepted.body as { line: { productId: string; pricePaise: number; quantity: number } }
    ).line;
    expect(line).toMatchObject({ pricePaise: 85_000, quantity: 2 });
    expect((await checkoutLines(db, a.id))[0]).toMatchObject({ available: true });
    const order = await placeOrder(db, {
      userId: a.id,
      addressId: a.addressId,
      method: "gateway",
      provider: "sandbox",
    });
    expect(order.status).toBe("pending");
    const cart = await db.select().from(cartItems).where(eq(cartItems.userId, a.id));
    expect(cart).toHaveLength(1);
  });

  it("a part in an order waiting for payment is frozen until that order is paid or cancelled", async () => {
    const a = await customer("quote-frozen");
    const quoteId = quoteIdOf(await upload(a.cookie));
    await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    const order = await placeOrder(db, {
      userId: a.id,
      addressId: a.addressId,
      method: "gateway",
      provider: "sandbox",
    });
    // Re-priced bigger, or sent to staff, while the order waits: refused.
    const bigger = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId,
      ...pla,
      scalePercent: "900",
      infillPercent: "100",
    });
    expect(bigger.status).toBe(409);
    expect((bigger.body as { error: string }).error).toMatch(/waiting for payment/);
    expect(
      (await pageAction(a.cookie, { intent: "request-review", quoteId, note: "bigger please" }))
        .status,
    ).toBe(409);
    const admin = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("qa") });
    await expect(
      answerQuote(
        { db, jobs: harness.rt.jobRunner, publicUrl: harness.rt.env.publicUrl },
        { ...admin, name: "Staff", isAdmin: true },
        quoteId,
        { kind: "offer", message: "x", unitPricePaise: 100, quantity: 1 },
      ),
    ).rejects.toMatchObject({ status: 409 });
    const [held] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
    expect(held.options).toMatchObject({ scalePercent: 100, infillPercent: 20 });
    expect(order.status).toBe("pending");
  });

  it("a closed quote leaves the cart, and a browser still holding it doesn't break the cart", async () => {
    const a = await customer("quote-closed");
    const quoteId = quoteIdOf(await upload(a.cookie));
    const added = await pageAction(a.cookie, { intent: "add-to-cart", quoteId, ...pla });
    const partId = (added.body as { line: { productId: string } }).line.productId;
    const admin = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("qb") });
    const staff = { ...admin, name: "Staff", isAdmin: true };
    const deps = { db, jobs: harness.rt.jobRunner, publicUrl: harness.rt.env.publicUrl };
    await expect(
      answerQuote(deps, staff, quoteId, {
        kind: "offer",
        message: "Too big",
        unitPricePaise: 10_000_000,
        quantity: 99,
      }),
    ).rejects.toMatchObject({ message: "An offer can be at most ₹50,00,000 in total." });
    await answerQuote(deps, staff, quoteId, { kind: "close", message: "We can't print this." });
    expect(await getCart(db, a.id)).toEqual([]);

    const product = await insertProductForCart();
    await setAllCartItems(db, a.id, [
      { productId: partId, quantity: 3 },
      { productId: product, quantity: 2 },
    ]);
    expect((await getCart(db, a.id)).map((l) => [l.productId, l.quantity])).toEqual([[product, 2]]);
  });
});

async function insertProductForCart() {
  const { insertProduct } = await import("../../../tests/support/factories.ts");
  return (await insertProduct(db)).id;
}
