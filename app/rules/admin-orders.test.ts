import { describe, expect, it } from "vitest";
import {
  allowedActions,
  csvSafe,
  escapeLike,
  itemsSummary,
  type OrderState,
  orderFiltersQuery,
  parseDay,
  parseOrderFilters,
  refusal,
  shipSchema,
  shipText,
} from "./admin-orders.ts";
import { istDayEnd, istDayStart, istToday } from "./india-time.ts";
import { paiseToRupeesText as paiseToRupees } from "./money.ts";

const state = (over: Partial<OrderState> = {}): OrderState => ({
  status: "processing",
  paymentStatus: "paid",
  paymentMethod: "gateway",
  returnStatus: null,
  ...over,
});

describe("admin order filters", () => {
  it("reads status, dates, text, view and page from the query", () => {
    const f = parseOrderFilters(
      new URLSearchParams("status=shipped&from=2026-11-01&to=2026-11-30&q=%20Asha%20&page=3"),
    );
    expect(f).toEqual({
      status: "shipped",
      from: "2026-11-01",
      to: "2026-11-30",
      q: "Asha",
      view: "all",
      page: 3,
    });
    expect(parseOrderFilters(new URLSearchParams("view=returns")).view).toBe("returns");
  });

  it("drops what it can't read", () => {
    const f = parseOrderFilters(
      new URLSearchParams("status=lost&from=2026-02-30&to=yesterday&page=-2&view=odd"),
    );
    expect(f).toEqual({ status: null, from: null, to: null, q: "", view: "all", page: 1 });
    expect(parseOrderFilters(new URLSearchParams(`q=${"x".repeat(500)}`)).q).toHaveLength(100);
    expect(parseOrderFilters(new URLSearchParams("page=1.5")).page).toBe(1);
  });

  it("checks calendar days", () => {
    expect(parseDay("2024-02-29")).toBe("2024-02-29");
    expect(parseDay("2025-02-29")).toBeNull();
    expect(parseDay("2025-13-01")).toBeNull();
    expect(parseDay("25-01-01")).toBeNull();
    expect(parseDay(null)).toBeNull();
  });

  it("reads dates as days in India", () => {
    expect(istDayStart("2026-11-22").toISOString()).toBe("2026-11-21T18:30:00.000Z");
    expect(istDayEnd("2026-11-22").toISOString()).toBe("2026-11-22T18:30:00.000Z");
    expect(istToday(new Date("2026-11-21T19:00:00Z"))).toBe("2026-11-22");
  });

  it("writes the query back without defaults, for links and the CSV export", () => {
    expect(orderFiltersQuery({ status: "delivered", from: "2026-11-01", q: "a b", page: 2 })).toBe(
      "status=delivered&from=2026-11-01&q=a+b&page=2",
    );
    expect(orderFiltersQuery({ view: "returns", page: 4 }, { page: false })).toBe("view=returns");
    expect(orderFiltersQuery({ page: 1 })).toBe("");
  });

  it("escapes LIKE wildcards", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
  });
});

describe("admin order actions (DESIGN.md decision 5)", () => {
  it("a processing order can be shipped or cancelled", () => {
    expect(allowedActions(state())).toEqual(["ship", "cancel"]);
  });
  it("an unpaid pending order can only be cancelled", () => {
    const s = state({ status: "pending", paymentStatus: "unpaid" });
    expect(allowedActions(s)).toEqual(["cancel"]);
    expect(refusal("ship", s)).toBe("This order isn't paid yet, so it can't be shipped.");
  });
  it("a shipped order can only be delivered; a COD one can also be marked paid", () => {
    expect(allowedActions(state({ status: "shipped" }))).toEqual(["deliver"]);
    expect(
      allowedActions(state({ status: "shipped", paymentMethod: "cod", paymentStatus: "unpaid" })),
    ).toEqual(["deliver", "cod-paid"]);
  });
  it("COD paid only for unpaid cash-on-delivery orders that are still open", () => {
    expect(refusal("cod-paid", state())).toBe(
      "Only cash-on-delivery orders are marked paid by hand.",
    );
    expect(refusal("cod-paid", state({ paymentMethod: "cod" }))).toBe(
      "This order's payment is already paid.",
    );
    expect(
      refusal(
        "cod-paid",
        state({ paymentMethod: "cod", paymentStatus: "unpaid", status: "cancelled" }),
      ),
    ).toBe("This order is cancelled.");
  });
  it("a delivered order's return request can be approved or rejected, then refunded", () => {
    const delivered = state({ status: "delivered" });
    expect(allowedActions(delivered)).toEqual([]);
    expect(refusal("refund", delivered)).toBe(
      "A delivered order is refunded only after its return is approved.",
    );
    expect(allowedActions({ ...delivered, returnStatus: "requested" })).toEqual([
      "approve-return",
      "reject-return",
    ]);
    expect(allowedActions({ ...delivered, returnStatus: "approved" })).toEqual(["refund"]);
    expect(allowedActions({ ...delivered, returnStatus: "rejected" })).toEqual([]);
    expect(refusal("approve-return", { ...delivered, returnStatus: "rejected" })).toBe(
      "This return is already rejected.",
    );
  });
  it("a paid cancelled order can be refunded; an unpaid one has nothing to refund", () => {
    expect(allowedActions(state({ status: "cancelled" }))).toEqual(["refund"]);
    expect(refusal("refund", state({ status: "cancelled", paymentStatus: "unpaid" }))).toBe(
      "This order's payment is unpaid, so there is nothing to refund.",
    );
  });
  it("refunded orders are final", () => {
    const s = state({ status: "refunded", paymentStatus: "refunded", returnStatus: "refunded" });
    expect(allowedActions(s)).toEqual([]);
    expect(refusal("refund", s)).toBe("This order is already refunded.");
    expect(refusal("cancel", s)).toBe(
      "This order is refunded, so it can't be cancelled (only pending or processing orders can).",
    );
  });
  it("shipped or processing paid orders aren't refunded directly", () => {
    expect(refusal("refund", state({ status: "shipped" }))).toBe(
      "This order is shipped: refunds are recorded for cancelled or returned orders, or approved returns.",
    );
  });
});

describe("ship form", () => {
  it("needs a carrier and a tracking number; the URL is optional", () => {
    expect(shipSchema.parse({ carrier: " Delhivery ", trackingNumber: "DL123" })).toEqual({
      carrier: "Delhivery",
      trackingNumber: "DL123",
      trackingUrl: null,
    });
    const bad = shipSchema.safeParse({ carrier: " ", trackingNumber: "" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      shipText.carrierRequired,
      shipText.trackingRequired,
    ]);
  });
  it("accepts only http and https tracking URLs", () => {
    const base = { carrier: "Delhivery", trackingNumber: "DL123" };
    expect(
      shipSchema.parse({ ...base, trackingUrl: "https://track.example/DL123" }).trackingUrl,
    ).toBe("https://track.example/DL123");
    expect(shipSchema.parse({ ...base, trackingUrl: "" }).trackingUrl).toBeNull();
    for (const url of ["javascript:alert(1)", "ftp://x.example/a", "track.example/1", "http://"]) {
      const r = shipSchema.safeParse({ ...base, trackingUrl: url });
      expect(r.error?.issues[0]?.message, url).toBe(shipText.urlInvalid);
    }
  });
});

describe("CSV cells", () => {
  it("defuses formulas", () => {
    expect(csvSafe("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvSafe("+91")).toBe("'+91");
    expect(csvSafe("-2")).toBe("'-2");
    expect(csvSafe("@SUM")).toBe("'@SUM");
    expect(csvSafe("\tx")).toBe("'\tx");
    expect(csvSafe("Asha = Rao")).toBe("Asha = Rao");
  });
  it("writes rupees with 2 decimals", () => {
    expect(paiseToRupees(38_691)).toBe("386.91");
    expect(paiseToRupees(999)).toBe("9.99");
    expect(paiseToRupees(5)).toBe("0.05");
    expect(paiseToRupees(100_000_00)).toBe("100000.00");
    expect(paiseToRupees(Number.NaN)).toBe("0.00");
  });
  it("summarises items", () => {
    expect(
      itemsSummary([
        { name: "Lotus", quantity: 2 },
        { name: "Dragon", quantity: 1 },
      ]),
    ).toBe("Lotus × 2; Dragon × 1");
  });
});
