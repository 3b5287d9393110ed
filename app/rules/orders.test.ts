import { describe, expect, it } from "vitest";
import {
  canMoveOrder,
  canMovePayment,
  nextReconcileDelay,
  ORDER_HOLD_SECONDS,
  type OrderStatus,
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
  it("is ORD-<the date in India>-NNNN", () => {
    // 20:00 UTC on 21 Nov is 01:30 on 22 Nov in India.
    expect(orderNumber(new Date("2026-11-21T20:00:00Z"), () => 0)).toBe("ORD-20261122-1000");
    expect(orderNumber(new Date("2026-11-21T18:29:59Z"), () => 0.5)).toBe("ORD-20261121-5500");
  });

  it("keeps NNNN within 1000..9999 whatever the random source gives", () => {
    expect(orderNumber(new Date("2026-01-01T00:00:00Z"), () => 0.99999)).toMatch(/-9999$/);
    expect(orderNumber(new Date("2026-01-01T00:00:00Z"), () => 1)).toMatch(/-9999$/);
    for (let i = 0; i < 50; i++) {
      expect(orderNumber(new Date())).toMatch(/^ORD-\d{8}-[1-9]\d{3}$/);
    }
  });
});

describe("statusLabel and tones", () => {
  it("capitalises a status and names an empty one", () => {
    expect(statusLabel("processing")).toBe("Processing");
    expect(statusLabel("")).toBe("Unknown");
  });

  it("gives each order status its tone", () => {
    expect(statusTone("delivered")).toBe("green");
    expect(statusTone("shipped")).toBe("blue");
    expect(statusTone("processing")).toBe("yellow");
    expect(statusTone("cancelled")).toBe("red");
    expect(statusTone("pending")).toBe("neutral");
    expect(statusTone("refunded")).toBe("neutral");
    expect(statusTone("anything")).toBe("neutral");
  });

  it("gives payment and return states their tones", () => {
    expect(paymentStatusTone("paid")).toBe("green");
    expect(paymentStatusTone("unpaid")).toBe("yellow");
    expect(paymentStatusTone("failed")).toBe("red");
    expect(paymentStatusTone("refunded")).toBe("blue");
    expect(paymentStatusTone("other")).toBe("neutral");
    expect(returnStatusTone("requested")).toBe("yellow");
    expect(returnStatusTone("approved")).toBe("blue");
    expect(returnStatusTone("rejected")).toBe("red");
    expect(returnStatusTone("refunded")).toBe("neutral");
    expect(returnStatusTone("other")).toBe("neutral");
  });

  it("has classes for every tone", () => {
    for (const tone of ["green", "blue", "yellow", "red", "neutral"] as const) {
      expect(STATUS_TONE_CLASSES[tone]).toBeTruthy();
    }
  });
});

describe("transitions", () => {
  const orderStates: OrderStatus[] = [
    "pending",
    "processing",
    "shipped",
    "delivered",
    "cancelled",
    "refunded",
  ];
  const allowedOrder = new Set([
    "pending>processing",
    "pending>cancelled",
    "processing>shipped",
    "processing>cancelled",
    "shipped>delivered",
    "delivered>refunded",
  ]);

  it("moves an order only along decision 5's edges; cancelled and refunded are final", () => {
    for (const from of orderStates) {
      for (const to of orderStates) {
        expect(canMoveOrder(from, to), `${from} → ${to}`).toBe(allowedOrder.has(`${from}>${to}`));
      }
    }
  });

  const paymentStates: PaymentStatus[] = ["unpaid", "paid", "failed", "refunded"];
  const allowedPayment = new Set(["unpaid>paid", "unpaid>failed", "failed>paid", "paid>refunded"]);

  it("never moves a paid payment back; a late success after a failure ends paid", () => {
    for (const from of paymentStates) {
      for (const to of paymentStates) {
        expect(canMovePayment(from, to), `${from} → ${to}`).toBe(
          allowedPayment.has(`${from}>${to}`),
        );
      }
    }
  });
});

describe("paymentMethodLabel", () => {
  it("names each method, the gateway deciding for online payments", () => {
    expect(paymentMethodLabel("cod")).toBe("Cash on Delivery");
    expect(paymentMethodLabel("card")).toBe("Card");
    expect(paymentMethodLabel("phonepe", "razorpay")).toBe("Razorpay");
    expect(paymentMethodLabel("razorpay")).toBe("Razorpay");
    expect(paymentMethodLabel("phonepe", "sandbox")).toBe("PhonePe (test mode)");
    expect(paymentMethodLabel("phonepe", "phonepe")).toBe("PhonePe");
    expect(paymentMethodLabel("phonepe")).toBe("PhonePe");
  });
});

describe("payment timing", () => {
  it("holds an unpaid order for the gateway's window plus five minutes", () => {
    expect(PAYMENT_WINDOW_SECONDS).toBe(1200);
    expect(ORDER_HOLD_SECONDS).toBe(1500);
  });

  it("follows PhonePe's reconciliation schedule", () => {
    expect(nextReconcileDelay(0)).toBe(25);
    expect(nextReconcileDelay(-5)).toBe(25);
    expect(nextReconcileDelay(20)).toBe(5);
    expect(nextReconcileDelay(25)).toBe(3);
    expect(nextReconcileDelay(54)).toBe(3);
    expect(nextReconcileDelay(55)).toBe(6);
    expect(nextReconcileDelay(115)).toBe(10);
    expect(nextReconcileDelay(175)).toBe(30);
    expect(nextReconcileDelay(235)).toBe(60);
    expect(nextReconcileDelay(1199)).toBe(60);
    expect(nextReconcileDelay(1200)).toBeNull();
  });
});
