import { z } from "zod";

/*
 * Category admin staging (SPEC.md §2 "Categories", §5 "Category admin"). The page keeps an add
 * list and a delete list in the browser and sends both on Confirm; the server applies them in one
 * transaction. Pure: shared by the page and the server, no I/O.
 *
 * Rules:
 * - names are compared case-insensitively, after trimming and collapsing inner whitespace;
 * - adding a name that is neither a category nor already staged puts it on the add list;
 * - adding a category that is staged for deletion takes it off the delete list (it stays);
 * - adding any other existing or staged name is a duplicate: 'Already exists' /
 *   'Category "X" is already present.';
 * - deleting a name on the add list takes it off the add list; deleting a category puts it on
 *   the delete list; deleting anything else does nothing;
 * - so the two lists never share a name, the add list never holds an existing category and the
 *   delete list only holds existing ones;
 * - suggestions: existing categories containing the typed text, names starting with it first, at
 *   most 20.
 */

export const MAX_CATEGORY_NAME_LENGTH = 60;
export const MAX_SUGGESTIONS = 20;
/** How many names one Confirm may carry in each list. */
export const MAX_STAGED_NAMES = 200;

export type Staging = { toAdd: string[]; toDelete: string[] };
export const emptyStaging: Staging = { toAdd: [], toDelete: [] };

/** Trimmed, with each run of whitespace made one space. */
export const normaliseCategoryName = (raw: string): string => raw.trim().replace(/\s+/g, " ");

/** The comparison key: names that differ only in case (or spacing) are the same category. */
export const categoryKey = (name: string): string => normaliseCategoryName(name).toLowerCase();

export const sameCategory = (a: string, b: string): boolean => categoryKey(a) === categoryKey(b);

const findIn = (list: readonly string[], name: string) => {
  const key = categoryKey(name);
  return list.find((n) => categoryKey(n) === key);
};
const without = (list: readonly string[], name: string) => {
  const key = categoryKey(name);
  return list.filter((n) => categoryKey(n) !== key);
};

export const duplicateMessage = (name: string) => ({
  title: "Already exists",
  description: `Category "${normaliseCategoryName(name)}" is already present.`,
});

/** Whether a name is a live category or already on the add list (the Add button's test). */
export function isPresent(existing: readonly string[], staging: Staging, raw: string): boolean {
  const name = normaliseCategoryName(raw);
  if (name === "") return false;
  if (findIn(staging.toAdd, name) !== undefined) return true;
  return findIn(existing, name) !== undefined && findIn(staging.toDelete, name) === undefined;
}

/** The Add button is enabled for a non-blank, not-too-long name that isn't present. */
export function canAdd(existing: readonly string[], staging: Staging, raw: string): boolean {
  const name = normaliseCategoryName(raw);
  return (
    name !== "" && name.length <= MAX_CATEGORY_NAME_LENGTH && !isPresent(existing, staging, name)
  );
}

/** The Delete button is enabled for a name on the add list or a category not yet staged. */
export function canDelete(existing: readonly string[], staging: Staging, raw: string): boolean {
  const name = normaliseCategoryName(raw);
  if (name === "") return false;
  if (findIn(staging.toAdd, name) !== undefined) return true;
  return findIn(existing, name) !== undefined && findIn(staging.toDelete, name) === undefined;
}

export type AddResult =
  | { ok: true; staging: Staging; restored: boolean }
  | { ok: false; reason: "empty" | "too-long" | "duplicate"; name: string };

export function stageAdd(existing: readonly string[], staging: Staging, raw: string): AddResult {
  const name = normaliseCategoryName(raw);
  if (name === "") return { ok: false, reason: "empty", name };
  if (name.length > MAX_CATEGORY_NAME_LENGTH) return { ok: false, reason: "too-long", name };
  if (isPresent(existing, staging, name)) return { ok: false, reason: "duplicate", name };
  if (findIn(existing, name) !== undefined) {
    // A category staged for deletion: adding it back keeps it.
    return {
      ok: true,
      restored: true,
      staging: { toAdd: staging.toAdd, toDelete: without(staging.toDelete, name) },
    };
  }
  return {
    ok: true,
    restored: false,
    staging: { toAdd: [...staging.toAdd, name], toDelete: without(staging.toDelete, name) },
  };
}

export type DeleteResult =
  | { ok: true; staging: Staging; unstaged: boolean }
  | { ok: false; reason: "empty" | "unknown"; name: string };

export function stageDelete(
  existing: readonly string[],
  staging: Staging,
  raw: string,
): DeleteResult {
  const name = normaliseCategoryName(raw);
  if (name === "") return { ok: false, reason: "empty", name };
  if (findIn(staging.toAdd, name) !== undefined) {
    return {
      ok: true,
      unstaged: true,
      staging: { toAdd: without(staging.toAdd, name), toDelete: staging.toDelete },
    };
  }
  const category = findIn(existing, name);
  if (category === undefined) return { ok: false, reason: "unknown", name };
  if (findIn(staging.toDelete, name) !== undefined) return { ok: true, unstaged: false, staging };
  return {
    ok: true,
    unstaged: false,
    staging: { toAdd: staging.toAdd, toDelete: [...staging.toDelete, category] },
  };
}

/** Takes a category off the delete list ("Keep"). */
export function unstageDelete(staging: Staging, name: string): Staging {
  return { toAdd: staging.toAdd, toDelete: without(staging.toDelete, name) };
}

export const hasChanges = (staging: Staging) =>
  staging.toAdd.length > 0 || staging.toDelete.length > 0;

/** The category list once the staged changes are applied (what Confirm will leave). */
export function applyStaging(existing: readonly string[], staging: Staging): string[] {
  const deleted = new Set(staging.toDelete.map(categoryKey));
  return [...existing.filter((n) => !deleted.has(categoryKey(n))), ...staging.toAdd];
}

/**
 * Existing categories containing the typed text (case-insensitive): names starting with it
 * first, then alphabetical; at most 20. Blank text suggests nothing.
 */
export function suggestCategories(
  existing: readonly string[],
  raw: string,
  limit = MAX_SUGGESTIONS,
): string[] {
  const key = categoryKey(raw);
  if (key === "") return [];
  const starts: string[] = [];
  const contains: string[] = [];
  for (const name of existing) {
    const k = categoryKey(name);
    if (k.startsWith(key)) starts.push(name);
    else if (k.includes(key)) contains.push(name);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "base" });
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, Math.max(0, limit));
}

/** The server's check of what Confirm sends (the browser's lists are never trusted as they are). */
export const categoryNameSchema = z
  .string()
  .transform(normaliseCategoryName)
  .pipe(
    z
      .string()
      .min(1, "Category name is required.")
      .max(MAX_CATEGORY_NAME_LENGTH, `Use at most ${MAX_CATEGORY_NAME_LENGTH} characters.`),
  );

export const categoryChangesSchema = z
  .object({
    add: z.array(categoryNameSchema).max(MAX_STAGED_NAMES),
    // Existing categories may have been named elsewhere: deleting one only needs it to be found.
    delete: z
      .array(z.string().transform(normaliseCategoryName).pipe(z.string().min(1).max(500)))
      .max(MAX_STAGED_NAMES),
  })
  .superRefine((value, ctx) => {
    const seen = new Map<string, string>();
    for (const [list, names] of [
      ["add", value.add],
      ["delete", value.delete],
    ] as const) {
      for (const name of names) {
        const key = categoryKey(name);
        const other = seen.get(key);
        if (other !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [list],
            message:
              other === list
                ? `Category "${name}" is listed twice.`
                : `Category "${name}" can't be both added and deleted.`,
          });
        }
        seen.set(key, list);
      }
    }
    if (value.add.length === 0 && value.delete.length === 0) {
      ctx.addIssue({ code: "custom", path: [], message: "There are no changes to apply." });
    }
  });

export type CategoryChanges = z.infer<typeof categoryChangesSchema>;
