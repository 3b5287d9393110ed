import { MAX_IMPORT_ROWS } from "./product-csv.ts";

/*
 * The old shop's product export, as JSON (SPEC.md §3 "Product" shapes). Accepted layouts:
 * - an object of document id → document (the document store's collection);
 * - an array of documents, each carrying its id as `id`, `productId` or `_id`;
 * - either of those under a `products` key, beside plain notes (e.g. `{ "about": "…",
 *   "products": {…} }`, as the shared fixture has it).
 * Pure: no I/O. Mapping each document is product-mapping.ts's job.
 */

export type LegacyEntry = {
  /** The document id ("" when an array item has none: mapping reports it). */
  id: string;
  /** Where the document is in the file, for messages: its id, or "item 3" in an array. */
  label: string;
  doc: unknown;
};

export type LegacyFailure = { label: string; id: string; reason: string };

export type LegacyParseResult =
  | { ok: true; entries: LegacyEntry[]; failures: LegacyFailure[] }
  | { ok: false; error: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function idOf(doc: unknown): string {
  if (!isRecord(doc)) return "";
  for (const key of ["id", "productId", "_id"]) {
    const v = Object.hasOwn(doc, key) ? doc[key] : undefined;
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
  }
  return "";
}

/** The product collection inside a parsed export, or null if the layout isn't one we know. */
function collection(value: unknown): unknown[] | Record<string, unknown> | null {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return null;
  const inner = Object.hasOwn(value, "products") ? value.products : undefined;
  const others = Object.entries(value).filter(([k]) => k !== "products");
  if (
    (Array.isArray(inner) || isRecord(inner)) &&
    others.every(([, v]) => !isRecord(v) && !Array.isArray(v))
  ) {
    return inner;
  }
  return value;
}

export function parseLegacyExport(text: string): LegacyParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, error: "The file is not valid JSON." };
  }
  const docs = collection(value);
  if (docs === null) {
    return {
      ok: false,
      error: "The JSON must be an array of product documents or an object of id → document.",
    };
  }
  const entries: LegacyEntry[] = [];
  const failures: LegacyFailure[] = [];
  if (Array.isArray(docs)) {
    if (docs.length > MAX_IMPORT_ROWS) {
      return { ok: false, error: `A file can hold at most ${MAX_IMPORT_ROWS} products.` };
    }
    const seen = new Map<string, string>();
    docs.forEach((doc, i) => {
      const id = idOf(doc);
      const label = id ? `${id} (item ${i + 1})` : `item ${i + 1}`;
      const earlier = id ? seen.get(id) : undefined;
      if (earlier !== undefined) {
        failures.push({ label, id, reason: `the same id as ${earlier}` });
        return;
      }
      if (id) seen.set(id, `item ${i + 1}`);
      entries.push({ id, label, doc });
    });
  } else {
    const all = Object.entries(docs);
    if (all.length > MAX_IMPORT_ROWS) {
      return { ok: false, error: `A file can hold at most ${MAX_IMPORT_ROWS} products.` };
    }
    for (const [id, doc] of all) entries.push({ id, label: id, doc });
  }
  return { ok: true, entries, failures };
}
