import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "./admin-orders.ts";
import {
  canMoveOrder,
  canMovePayment,
  nextReconcileDelay,
  ORDER_HOLD_SECONDS,
  orderNumber,
  PAYMENT_WINDOW_SECONDS,
  type PaymentStatus,
  paymentMethodLabel,
  paymentStatusTone,
  returnStatusTone,
  STATUS_TONE_CLASSES,
  statusLabel,
  statusTone,
} from "./orders.ts";

describe("orderNumber", () => {
  it("is ORD-<the date in India>-NNNN, NNNN within 1000..9999", () => {
    // 20:00 UTC on 21 Nov is 01:30 on 22 Nov in India.
    expect(orderNumber(new Date("2026-11-21T20:00:00Z"), () => 0)).toBe("ORD-20261122-1000");
    expect(orderNumber(new Date("2026-11-21T18:29:59Z"), () => 0.5)).toBe("ORD-20261121-5500");
    expect(orderNumber(new Date("2026-01-01T00:00:00Z"), () => 1)).toBe("ORD-20260101-9999");
    for (let i = 0; i < 50; i++) expect(orderNumber(new Date())).toMatch(/^ORD-\d{8}-[1-9]\d{3}$/);
  });
});

describe("labels and tones", () => {
  it("capitalises a status and names an empty one", () => {
    expect([statusLabel("processing"), statusLabel("")]).toEqual(["Processing", "Unknown"]);
  });

  const tones: Array<[(status: string) => string, Record<string, string>]> = [
    [
      statusTone,
      {
        delivered: "green",
        shipped: "blue",
        processing: "yellow",
        cancelled: "red",
        pending: "neutral",
      },
    ],
    [paymentStatusTone, { paid: "green", unpaid: "yellow", failed: "red", refunded: "blue" }],
    [
      returnStatusTone,
      { requested: "yellow", approved: "blue", rejected: "red", refunded: "neutral" },
    ],
  ];
  it.each(tones)("gives each state its tone (%o), anything else neutral", (tone, expected) => {
    for (const [status, colour] of Object.entries(expected)) expect(tone(status)).toBe(colour);
    expect(tone("something else")).toBe("neutral");
    expect(Object.keys(STATUS_TONE_CLASSES)).toContain(tone("something else"));
  });

  it("names each payment method, the gateway deciding for online payments", () => {
    const cases: Array<[string, string | undefined, string]> = [
      ["cod", undefined, "Cash on Delivery"],
      ["card", undefined, "Card"],
      ["phonepe", "razorpay", "Razorpay"],
      ["razorpay", undefined, "Razorpay"],
      ["phonepe", "sandbox", "PhonePe (test mode)"],
      ["phonepe", "phonepe", "PhonePe"],
    ];
    for (const [method, provider, label] of cases) {
      expect(paymentMethodLabel(method, provider)).toBe(label);
    }
  });
});

describe("transitions (DESIGN.md decision 5)", () => {
  const orderEdges = "pending>processing pending>cancelled processing>shipped processing>cancelled";
  // The courier returns an order (RTO, decision 0016).
  const courierEdges = "processing>returned shipped>returned";
  const allowedOrder = new Set(
    `${orderEdges} ${courierEdges} shipped>delivered delivered>refunded`.split(" "),
  );
  it("moves an order only along its edges; cancelled, refunded and returned are final", () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        expect(canMoveOrder(from, to), `${from} → ${to}`).toBe(allowedOrder.has(`${from}>${to}`));
      }
    }
  });

  const payments: PaymentStatus[] = ["unpaid", "paid", "failed", "refunded"];
  const allowedPayment = new Set("unpaid>paid unpaid>failed failed>paid paid>refunded".split(" "));
  it("never moves a paid payment back; a late success after a failure ends paid", () => {
    for (const from of payments) {
      for (const to of payments) {
        const allowed = allowedPayment.has(`${from}>${to}`);
        expect(canMovePayment(from, to), `${from} → ${to}`).toBe(allowed);
      }
    }
  });
});

describe("payment timing", () => {
  it("holds an unpaid order for the gateway's window plus five minutes", () => {
    expect([PAYMENT_WINDOW_SECONDS, ORDER_HOLD_SECONDS]).toEqual([1200, 1500]);
  });

  it("follows PhonePe's reconciliation schedule", () => {
    const schedule: Array<[elapsed: number, delay: number | null]> = [
      [-5, 25],
      [0, 25],
      [20, 5],
      [25, 3],
      [54, 3],
      [55, 6],
      [115, 10],
      [175, 30],
      [235, 60],
      [1199, 60],
      [1200, null],
    ];
    for (const [elapsed, delay] of schedule) expect(nextReconcileDelay(elapsed)).toBe(delay);
  });
});
