import Papa from "papaparse";

/*
 * The newsletter subscribers export (/admin/subscribers.csv). A spreadsheet treats a cell that
 * starts with = + - @ (or a tab or carriage return) as a formula, so such cells get a leading
 * apostrophe: the value shows as typed and never runs (CSV/formula injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet shows as text, never evaluates. */
export function spreadsheetSafe(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export type SubscriberCsvRow = { email: string; createdAt: Date };

/**
 * The CSV text: a header row, then one row per subscriber (RFC 4180 quoting; every line, the last
 * too, ends with CRLF).
 */
export function subscribersCsv(rows: readonly SubscriberCsvRow[]): string {
  const csv = Papa.unparse(
    {
      fields: ["email", "subscribed_at"],
      data: rows.map((r) => [spreadsheetSafe(r.email), r.createdAt.toISOString()]),
    },
    { newline: "\r\n" },
  );
  return csv.endsWith("\r\n") ? csv : `${csv}\r\n`;
}

/** "subscribers-2026-11-22.csv" (the India date of `now`). */
export function subscribersCsvFilename(now: Date): string {
  const ist = new Date(now.getTime() + (5 * 60 + 30) * 60 * 1000);
  return `subscribers-${ist.toISOString().slice(0, 10)}.csv`;
}
