import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { spreadsheetSafe, subscribersCsv, subscribersCsvFilename } from "./subscribers-csv.ts";

describe("subscribers CSV", () => {
  it("prefixes cells a spreadsheet would run as a formula", () => {
    expect(spreadsheetSafe('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(spreadsheetSafe("+91@example.com")).toBe("'+91@example.com");
    expect(spreadsheetSafe("-2+3@example.com")).toBe("'-2+3@example.com");
    expect(spreadsheetSafe("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(spreadsheetSafe("\t=1")).toBe("'\t=1");
    expect(spreadsheetSafe("asha@example.com")).toBe("asha@example.com");
    expect(spreadsheetSafe("a=b@example.com")).toBe("a=b@example.com");
  });

  it("writes a header and one quoted-as-needed row per subscriber", () => {
    const csv = subscribersCsv([
      { email: "asha@example.com", createdAt: new Date("2026-11-22T08:30:00.000Z") },
      { email: '=cmd|"/c calc"!A1,x@example.com', createdAt: new Date("2026-11-21T00:00:00Z") },
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("email,subscribed_at");
    expect(lines[1]).toBe("asha@example.com,2026-11-22T08:30:00.000Z");
    // Read back, the dangerous cell is text starting with an apostrophe.
    expect(csv.endsWith("Z\r\n")).toBe(true);
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(parsed[2]).toEqual(['\'=cmd|"/c calc"!A1,x@example.com', "2026-11-21T00:00:00.000Z"]);
  });

  it("is just the header when there is nobody", () => {
    expect(subscribersCsv([])).toBe("email,subscribed_at\r\n");
  });

  it("names the file by the India date", () => {
    expect(subscribersCsvFilename(new Date("2026-11-21T18:29:59Z"))).toBe(
      "subscribers-2026-11-21.csv",
    );
    expect(subscribersCsvFilename(new Date("2026-11-21T18:30:00Z"))).toBe(
      "subscribers-2026-11-22.csv",
    );
  });
});
