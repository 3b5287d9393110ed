import { describe, expect, it } from "vitest";
import type { Cart } from "./cart.ts";
import {
  nextUnsent,
  opFor,
  settledBy,
  UNSENT_KEPT_MS,
  UNSENT_WHOLE_KEPT_MS,
  type Unsent,
  unsentKey,
} from "./cart-sync.ts";

const NOW = 1_800_000_000_000;
const mark = (over: Partial<Unsent> & { key?: string } = {}): [string, Unsent] => {
  const { key, ...rest } = over;
  const m: Unsent = { account: "alice", at: NOW - 1000, id: "m1", productId: "p1", ...rest };
  return [
    key ?? unsentKey(m.productId ? { productId: m.productId, variantId: m.variantId } : undefined),
    m,
  ];
};
const whole = (over: Partial<Unsent> = {}): [string, Unsent] => [
  "*",
  { account: "alice", at: NOW - 1000, id: "w", ...over },
];
const line = (productId: string, quantity: number, variantId?: string) => ({
  productId,
  variantId,
  quantity,
  name: productId,
  pricePaise: 100,
  image: "",
  category: "x",
  addedAt: "2026-11-28T00:00:00.000Z",
});

describe("unsentKey", () => {
  it("names a line by its variant, or its product without one, and the whole cart '*'", () => {
    expect(unsentKey({ productId: "p1" })).toBe("p1");
    expect(unsentKey({ productId: "p1", variantId: "v1" })).toBe("v1");
    expect(unsentKey()).toBe("*");
  });
});

describe("nextUnsent", () => {
  it("sends the whole cart's mark first, then the oldest line's", () => {
    const older = mark({ productId: "p2", at: NOW - 5000, id: "a" });
    const newer = mark({ productId: "p1", at: NOW - 10, id: "b" });
    expect(nextUnsent([newer, older], "alice", NOW).next).toEqual(older);
    const all = whole({ at: NOW - 1, id: "c" });
    expect(nextUnsent([newer, older, all], "alice", NOW).next).toEqual(all);
  });

  it("drops another account's marks, unreadable ones, mismatched ones and those kept too long", () => {
    const bobs = mark({ account: "bob", productId: "p3" });
    const stale = mark({ productId: "p4", at: NOW - UNSENT_KEPT_MS - 1 });
    const future = mark({ productId: "p6", at: Number.NaN });
    const justKept = mark({ productId: "p5", at: NOW - UNSENT_KEPT_MS });
    const lineAsWhole: [string, Unsent] = ["*", mark({ productId: "p7" })[1]];
    const { drop, next } = nextUnsent(
      [bobs, stale, ["p8", null], future, lineAsWhole, justKept],
      "alice",
      NOW,
    );
    expect(drop.sort()).toEqual(["*", "p3", "p4", "p6", "p8"]);
    expect(next).toEqual(justKept);
  });

  it("keeps a whole cart's mark for minutes only", () => {
    const fresh = whole({ at: NOW - UNSENT_WHOLE_KEPT_MS });
    expect(nextUnsent([fresh], "alice", NOW).next).toEqual(fresh);
    const old = whole({ at: NOW - UNSENT_WHOLE_KEPT_MS - 1 });
    expect(nextUnsent([old], "alice", NOW)).toEqual({ drop: ["*"], next: null });
  });

  it("has nothing to send when no mark is the account's", () => {
    expect(nextUnsent([], "alice", NOW)).toEqual({ drop: [], next: null });
  });
});

describe("opFor", () => {
  const cart: Cart = [line("p1", 2), line("p2", 1, "v2")];

  it("sends a line's quantity in the cart now, or its removal when it's gone", () => {
    expect(opFor(mark({ productId: "p1" })[1], cart)).toEqual({
      intent: "set",
      productId: "p1",
      variantId: null,
      quantity: 2,
    });
    expect(opFor(mark({ productId: "p2", variantId: "v2" })[1], cart)).toEqual({
      intent: "set",
      productId: "p2",
      variantId: "v2",
      quantity: 1,
    });
    // Another variant of p2 isn't the v2 line.
    expect(opFor(mark({ productId: "p2", variantId: "v9" })[1], cart)).toEqual({
      intent: "remove",
      productId: "p2",
      variantId: "v9",
    });
  });

  it("sends the whole cart as it is now, or clears it when it's empty", () => {
    expect(opFor(whole()[1], cart)).toEqual({
      intent: "set-all",
      lines: [
        { productId: "p1", variantId: null, quantity: 2 },
        { productId: "p2", variantId: "v2", quantity: 1 },
      ],
    });
    expect(opFor(whole()[1], [])).toEqual({ intent: "clear" });
  });
});

describe("settledBy", () => {
  it("settles the sent line only if its mark is unchanged since the sending began", () => {
    const before = new Map([
      ["p1", "a"],
      ["p2", "b"],
    ]);
    const unchanged = mark({ productId: "p1", id: "a" });
    const other = mark({ productId: "p2", id: "b" });
    expect(settledBy("p1", before, [unchanged, other])).toEqual(["p1"]);
    // Changed meanwhile (here or in another tab): sent again with its new value.
    expect(settledBy("p1", before, [mark({ productId: "p1", id: "a2" }), other])).toEqual([]);
    // Marked only after the sending began.
    expect(settledBy("p3", before, [mark({ productId: "p3", id: "c" })])).toEqual([]);
  });

  it("settles every unchanged mark with the whole cart", () => {
    const before = new Map([
      ["*", "w"],
      ["p1", "a"],
      ["p2", "b"],
    ]);
    expect(
      settledBy("*", before, [
        whole({ id: "w" }),
        mark({ productId: "p1", id: "a" }),
        mark({ productId: "p2", id: "b2" }),
        ["p3", null],
      ]),
    ).toEqual(["*", "p1"]);
  });
});
