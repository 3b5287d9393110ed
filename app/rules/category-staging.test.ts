import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyStaging,
  canAdd,
  canDelete,
  categoryChangesSchema,
  categoryKey,
  duplicateMessage,
  emptyStaging,
  isPresent,
  MAX_CATEGORY_NAME_LENGTH,
  MAX_SUGGESTIONS,
  normaliseCategoryName,
  type Staging,
  stageAdd,
  stageDelete,
  suggestCategories,
  unstageDelete,
} from "./category-staging.ts";

const existing = ["3D Prints", "3D Characters", "Home Decor"];

function add(staging: Staging, name: string, list = existing): Staging {
  const r = stageAdd(list, staging, name);
  if (!r.ok) throw new Error(`add ${name}: ${r.reason}`);
  return r.staging;
}
function del(staging: Staging, name: string, list = existing): Staging {
  const r = stageDelete(list, staging, name);
  if (!r.ok) throw new Error(`delete ${name}: ${r.reason}`);
  return r.staging;
}

describe("category staging", () => {
  it("adds a new name, trimmed and with inner spaces collapsed", () => {
    expect(add(emptyStaging, "  Resin   Kits ")).toEqual({ toAdd: ["Resin Kits"], toDelete: [] });
  });

  it("refuses a blank name and an over-long one", () => {
    expect(stageAdd(existing, emptyStaging, "   ")).toMatchObject({ ok: false, reason: "empty" });
    expect(
      stageAdd(existing, emptyStaging, "x".repeat(MAX_CATEGORY_NAME_LENGTH + 1)),
    ).toMatchObject({ ok: false, reason: "too-long" });
    expect(canAdd(existing, emptyStaging, "")).toBe(false);
    expect(canAdd(existing, emptyStaging, "  \t ")).toBe(false);
  });

  it("a duplicate of a category or of a staged name, in any case, is 'Already exists'", () => {
    expect(stageAdd(existing, emptyStaging, "3d prints")).toEqual({
      ok: false,
      reason: "duplicate",
      name: "3d prints",
    });
    const staged = add(emptyStaging, "Resin Kits");
    expect(stageAdd(existing, staged, "RESIN kits")).toMatchObject({ reason: "duplicate" });
    expect(canAdd(existing, staged, "resin kits")).toBe(false);
    expect(canAdd(existing, staged, "Home decor")).toBe(false);
    expect(duplicateMessage(" resin  kits ")).toEqual({
      title: "Already exists",
      description: 'Category "resin kits" is already present.',
    });
  });

  it("deleting a name on the add list takes it off the add list", () => {
    const staged = add(add(emptyStaging, "Resin Kits"), "Lamps");
    const r = stageDelete(existing, staged, "resin kits");
    expect(r).toEqual({ ok: true, unstaged: true, staging: { toAdd: ["Lamps"], toDelete: [] } });
  });

  it("deleting a category stages it (once, with its own spelling); adding it back unstages it", () => {
    let s = del(emptyStaging, "home decor");
    expect(s).toEqual({ toAdd: [], toDelete: ["Home Decor"] });
    expect(del(s, "HOME DECOR")).toEqual(s);
    expect(isPresent(existing, s, "Home Decor")).toBe(false);
    expect(canAdd(existing, s, "Home Decor")).toBe(true);
    const r = stageAdd(existing, s, "Home Decor");
    expect(r).toEqual({ ok: true, restored: true, staging: { toAdd: [], toDelete: [] } });
    s = del(emptyStaging, "3D Prints");
    expect(unstageDelete(s, "3d prints")).toEqual(emptyStaging);
  });

  it("deleting an unknown or blank name does nothing", () => {
    expect(stageDelete(existing, emptyStaging, "Nope")).toMatchObject({ reason: "unknown" });
    expect(stageDelete(existing, emptyStaging, "")).toMatchObject({ reason: "empty" });
    expect(canDelete(existing, emptyStaging, "Nope")).toBe(false);
    expect(canDelete(existing, emptyStaging, "3d characters")).toBe(true);
  });

  it("applyStaging gives the list Confirm leaves", () => {
    const s = del(add(emptyStaging, "Lamps"), "3D Prints");
    expect(applyStaging(existing, s)).toEqual(["3D Characters", "Home Decor", "Lamps"]);
  });

  it("normalises names", () => {
    expect(normaliseCategoryName("  a \n b  ")).toBe("a b");
    expect(categoryKey(" Home  DECOR")).toBe("home decor");
  });
});

describe("suggestions", () => {
  const many = Array.from({ length: 50 }, (_, i) => `Category ${String(i).padStart(2, "0")}`);

  it("at most 20, names starting with the text first", () => {
    expect(suggestCategories(many, "cat")).toHaveLength(MAX_SUGGESTIONS);
    expect(suggestCategories(["Home Decor", "Decor Lamps", "Toys"], "decor")).toEqual([
      "Decor Lamps",
      "Home Decor",
    ]);
    expect(suggestCategories(existing, "  ")).toEqual([]);
    expect(suggestCategories(existing, "3D C")).toEqual(["3D Characters"]);
  });
});

describe("Confirm's payload on the server", () => {
  it("accepts normalised lists and refuses overlaps, repeats and empty changes", () => {
    expect(categoryChangesSchema.parse({ add: [" Lamps "], delete: ["Toys"] })).toEqual({
      add: ["Lamps"],
      delete: ["Toys"],
    });
    expect(categoryChangesSchema.safeParse({ add: ["Lamps"], delete: ["lamps"] }).success).toBe(
      false,
    );
    expect(categoryChangesSchema.safeParse({ add: ["Lamps", "LAMPS"], delete: [] }).success).toBe(
      false,
    );
    expect(categoryChangesSchema.safeParse({ add: [], delete: [] }).success).toBe(false);
    expect(categoryChangesSchema.safeParse({ add: [" "], delete: [] }).success).toBe(false);
  });
});

// Property tests: any sequence of adds and deletes keeps the lists consistent.
const nameArb = fc.oneof(
  fc.constantFrom("Toys", "toys", " TOYS ", "Lamps", "lamps", "Home Decor", "home  decor", "", " "),
  fc.string({ maxLength: 8 }),
);
const opArb = fc.record({ kind: fc.constantFrom("add", "delete"), name: nameArb });
const existingArb = fc
  .uniqueArray(
    fc.oneof(fc.constantFrom("Toys", "Home Decor", "Gadgets"), fc.string({ maxLength: 6 })),
    {
      selector: categoryKey,
      maxLength: 6,
    },
  )
  .map((list) => list.map(normaliseCategoryName).filter((n) => n !== ""));

function run(list: string[], ops: Array<{ kind: string; name: string }>): Staging {
  let s = emptyStaging;
  for (const op of ops) {
    const r = op.kind === "add" ? stageAdd(list, s, op.name) : stageDelete(list, s, op.name);
    if (r.ok) s = r.staging;
  }
  return s;
}

const keys = (names: string[]) => names.map(categoryKey);
const hasRepeats = (names: string[]) => new Set(keys(names)).size !== names.length;

describe("staging properties", () => {
  it("the lists never share a name, never repeat one, and stay within what exists", () => {
    fc.assert(
      fc.property(existingArb, fc.array(opArb, { maxLength: 25 }), (list, ops) => {
        const s = run(list, ops);
        const existingKeys = new Set(keys(list));
        const addKeys = new Set(keys(s.toAdd));
        expect(hasRepeats(s.toAdd)).toBe(false);
        expect(hasRepeats(s.toDelete)).toBe(false);
        for (const k of keys(s.toDelete)) {
          expect(addKeys.has(k)).toBe(false);
          expect(existingKeys.has(k)).toBe(true);
        }
        for (const k of addKeys) expect(existingKeys.has(k)).toBe(false);
        for (const n of s.toAdd) expect(n).toBe(normaliseCategoryName(n));
        // Whatever was staged, the server's schema accepts it (when there is something to send).
        if (s.toAdd.length + s.toDelete.length > 0) {
          expect(
            categoryChangesSchema.safeParse({ add: s.toAdd, delete: s.toDelete }).success,
          ).toBe(true);
        }
      }),
    );
  });

  it("after adding a name it is present and not on the delete list; after deleting it, it's not on the add list", () => {
    fc.assert(
      fc.property(existingArb, fc.array(opArb, { maxLength: 15 }), nameArb, (list, ops, name) => {
        const s = run(list, ops);
        const added = stageAdd(list, s, name);
        if (added.ok) {
          expect(isPresent(list, added.staging, name)).toBe(true);
          expect(keys(added.staging.toDelete)).not.toContain(categoryKey(name));
          expect(keys(applyStaging(list, added.staging))).toContain(categoryKey(name));
        } else if (added.reason === "duplicate") {
          expect(canAdd(list, s, name)).toBe(false);
        }
        const deleted = stageDelete(list, s, name);
        if (deleted.ok) {
          expect(keys(deleted.staging.toAdd)).not.toContain(categoryKey(name));
          expect(keys(applyStaging(list, deleted.staging))).not.toContain(categoryKey(name));
        }
      }),
    );
  });

  it("Add is enabled exactly when adding succeeds", () => {
    fc.assert(
      fc.property(existingArb, fc.array(opArb, { maxLength: 15 }), nameArb, (list, ops, name) => {
        const s = run(list, ops);
        expect(canAdd(list, s, name)).toBe(stageAdd(list, s, name).ok);
        expect(canDelete(list, s, name)).toBe(
          (() => {
            const r = stageDelete(list, s, name);
            return r.ok && r.staging !== s;
          })(),
        );
      }),
    );
  });

  it("suggestions are existing names containing the text, at most 20", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 60 }),
        fc.string(),
        (list, q) => {
          const out = suggestCategories(list, q);
          expect(out.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
          for (const n of out) {
            expect(list).toContain(n);
            expect(categoryKey(n)).toContain(categoryKey(q));
          }
        },
      ),
    );
  });
});
