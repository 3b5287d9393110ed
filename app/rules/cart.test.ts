import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addItem,
  type Cart,
  type CartLine,
  cartTotal,
  clearCart,
  itemCount,
  lineKey,
  MAX_LINE_QUANTITY,
  mergeCarts,
  removeItem,
  setCart,
  updateQuantity,
} from "./cart.ts";

const item = (productId: string, pricePaise = 1000): Omit<CartLine, "quantity"> => ({
  productId,
  name: `Product ${productId}`,
  pricePaise,
  image: null,
  category: "3D Prints",
  addedAt: "2026-11-21T00:00:00.000Z",
});

const lineArb = fc.record({
  productId: fc.constantFrom("a", "b", "c", "d", "e"),
  name: fc.string(),
  pricePaise: fc.integer({ min: 0, max: 10_000_000 }),
  image: fc.constant(null),
  category: fc.string(),
  quantity: fc.integer({ min: 1, max: MAX_LINE_QUANTITY }),
  addedAt: fc.constant("2026-11-21T00:00:00.000Z"),
});
const cartArb: fc.Arbitrary<Cart> = fc
  .uniqueArray(lineArb, { selector: (l) => l.productId, maxLength: 5 })
  .map((lines) => lines as Cart);

describe("cart rules", () => {
  it("adds a new product with quantity 1 and increments an existing one", () => {
    let cart = addItem([], item("a"));
    expect(cart).toEqual([{ ...item("a"), quantity: 1 }]);
    cart = addItem(cart, item("a"));
    expect(cart[0].quantity).toBe(2);
    cart = addItem(cart, item("b"));
    expect(cart.map((l) => l.productId)).toEqual(["a", "b"]);
  });

  it("removes, updates (clamped at 0, removed at 0), sets and clears", () => {
    const cart = addItem(addItem([], item("a")), item("b"));
    expect(removeItem(cart, "a").map((l) => l.productId)).toEqual(["b"]);
    expect(updateQuantity(cart, "a", 5)[0].quantity).toBe(5);
    expect(updateQuantity(cart, "a", 0).map((l) => l.productId)).toEqual(["b"]);
    expect(updateQuantity(cart, "a", -3).map((l) => l.productId)).toEqual(["b"]);
    expect(setCart([{ ...item("z"), quantity: 2 }])).toEqual([{ ...item("z"), quantity: 2 }]);
    expect(clearCart()).toEqual([]);
  });

  it("totals price × quantity and counts quantities", () => {
    const cart = updateQuantity(addItem(addItem([], item("a", 999)), item("b", 49_900)), "a", 3);
    expect(cartTotal(cart)).toBe(3 * 999 + 49_900);
    expect(itemCount(cart)).toBe(4);
  });

  it("property: total and count are sums over lines", () => {
    fc.assert(
      fc.property(cartArb, (cart) => {
        expect(itemCount(cart)).toBe(cart.reduce((s, l) => s + l.quantity, 0));
        expect(cartTotal(cart)).toBe(cart.reduce((s, l) => s + l.quantity * l.pricePaise, 0));
      }),
    );
  });

  it("property: adding then updating never leaves a line at or below zero", () => {
    fc.assert(
      fc.property(
        cartArb,
        fc.constantFrom("a", "b", "z"),
        fc.integer({ min: -5, max: 200 }),
        (cart, id, q) => {
          const next = updateQuantity(addItem(cart, item(id)), id, q);
          for (const line of next) expect(line.quantity).toBeGreaterThan(0);
          expect(next.some((l) => l.productId === id)).toBe(q > 0);
        },
      ),
    );
  });

  it("property: merge keeps every product once, with the larger quantity", () => {
    fc.assert(
      fc.property(cartArb, cartArb, (stored, local) => {
        const merged = mergeCarts(stored, local);
        const ids = new Set([...stored, ...local].map((l) => l.productId));
        expect(new Set(merged.map((l) => l.productId))).toEqual(ids);
        expect(merged).toHaveLength(ids.size);
        for (const line of merged) {
          const a = stored.find((l) => l.productId === line.productId)?.quantity ?? 0;
          const b = local.find((l) => l.productId === line.productId)?.quantity ?? 0;
          expect(line.quantity).toBe(Math.max(a, b));
        }
      }),
    );
  });

  it("property: merge is idempotent and an empty side changes nothing", () => {
    fc.assert(
      fc.property(cartArb, cartArb, (stored, local) => {
        const once = mergeCarts(stored, local);
        expect(mergeCarts(once, local)).toEqual(once);
        expect(mergeCarts(stored, [])).toEqual(setCart(stored));
        expect(itemCount(mergeCarts([], local))).toBe(itemCount(local));
      }),
    );
  });

  describe("per variant (issue 22)", () => {
    const line = (productId: string, variantId: string | null, quantity: number) => ({
      productId,
      variantId,
      name: productId,
      pricePaise: 100,
      image: null,
      category: "3D Prints",
      quantity,
      addedAt: "2026-01-01T00:00:00.000Z",
    });

    it("keeps one line per variant of the same product", () => {
      let cart = addItem([], line("p", "red", 1));
      cart = addItem(cart, line("p", "blue", 1));
      cart = addItem(cart, line("p", "red", 1));
      expect(cart.map((l) => [lineKey(l), l.quantity])).toEqual([
        ["red", 2],
        ["blue", 1],
      ]);
      expect(updateQuantity(cart, "blue", 0).map(lineKey)).toEqual(["red"]);
      expect(removeItem(cart, "red").map(lineKey)).toEqual(["blue"]);
      // A line without a variant is told apart by its product.
      expect(lineKey(line("q", null, 1))).toBe("q");
    });

    it("merges per variant, and a local line without one joins the product's only stored line", () => {
      const stored = [line("p", "red", 1), line("p", "blue", 3), line("q", "q-default", 2)];
      const local = [line("p", "red", 2), line("p", "green", 1), line("q", null, 5)];
      expect(mergeCarts(stored, local).map((l) => [lineKey(l), l.quantity])).toEqual([
        ["red", 2],
        ["blue", 3],
        ["q-default", 5],
        ["green", 1],
      ]);
      // Two stored variants of p: a local line without a variant stays its own (the server
      // resolves it to the default when the merge is written back).
      expect(mergeCarts(stored, [line("p", null, 1)]).map(lineKey)).toEqual([
        "red",
        "blue",
        "q-default",
        "p",
      ]);
    });
  });
});
