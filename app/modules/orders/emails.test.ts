import { describe, expect, it } from "vitest";
import {
  type OrderEmailData,
  orderCancelledEmail,
  orderConfirmationEmail,
  orderOutForDeliveryEmail,
} from "./emails.ts";

const base: OrderEmailData = {
  customerName: "Asha",
  orderNumber: "ORD-20261121-0007",
  ordersUrl: "https://shop.example/orders",
  items: [{ name: "Articulated Dragon", quantity: 2, unitPricePaise: 99_900 }],
  subtotalPaise: 199_800,
  discounts: [],
  shippingPaise: 9_900,
  taxPaise: 15_984,
  totalPaise: 225_684,
  paymentMethod: "gateway",
  paymentProvider: "sandbox",
  paid: true,
  address: {
    name: "Asha",
    line1: "12 MG Road",
    city: "Bengaluru",
    state: "Karnataka",
    postalCode: "560001",
  },
};

describe("order e-mails", () => {
  it("an order without discounts lists subtotal, shipping, tax and total as before", () => {
    const { text, html } = orderConfirmationEmail(base);
    expect(text).toContain(
      [
        "  Subtotal  ₹1,998.00",
        "  Shipping  ₹99.00",
        "  Tax       ₹159.84",
        "  Total     ₹2,256.84",
      ].join("\n"),
    );
    expect(text).not.toContain("Discount");
    expect(html).not.toContain("Discount");
  });

  it("a cash-on-delivery order lists its fee on its own line, and asks for the total with it", () => {
    const d: OrderEmailData = {
      ...base,
      paymentMethod: "cod",
      paymentProvider: "cod",
      paid: false,
      codFeePaise: 4_900,
      totalPaise: 225_684 + 4_900,
    };
    const { text, html } = orderConfirmationEmail(d);
    expect(text).toContain(
      [
        "  Subtotal              ₹1,998.00",
        "  Shipping              ₹99.00",
        "  Cash on delivery fee  ₹49.00",
        "  Tax                   ₹159.84",
        "  Total                 ₹2,305.84",
      ].join("\n"),
    );
    expect(text).toContain("You'll pay ₹2,305.84 in cash when it arrives.");
    expect(html).toContain("Cash on delivery fee");
  });

  it("the confirmation and the cancellation name each code and offer with its amount", () => {
    const d: OrderEmailData = {
      ...base,
      discounts: [
        { label: "Discount (DIWALI20)", on: "items", amountPaise: 30_000 },
        { label: "Free shipping (FREESHIP)", on: "shipping", amountPaise: 9_900 },
      ],
      taxPaise: 13_584,
      totalPaise: 199_800 - 30_000 + 13_584,
    };
    for (const mail of [orderConfirmationEmail(d), orderCancelledEmail(d)]) {
      expect(mail.text).toContain(
        [
          "  Subtotal                  ₹1,998.00",
          "  Discount (DIWALI20)       −₹300.00",
          "  Shipping                  ₹99.00",
          "  Free shipping (FREESHIP)  −₹99.00",
          "  Tax                       ₹135.84",
          "  Total                     ₹1,833.84",
        ].join("\n"),
      );
      expect(mail.html).toContain(">Discount (DIWALI20)</td>");
      expect(mail.html).toContain(">−₹300.00</td>");
      expect(mail.html).toContain(">Free shipping (FREESHIP)</td>");
    }
  });

  it("a custom part says when it is ready", () => {
    const { text, html } = orderConfirmationEmail({
      ...base,
      items: [
        {
          name: "Custom print: gear (PLA, Black, Express)",
          quantity: 2,
          unitPricePaise: 70_000,
          readyBy: "2026-12-04",
        },
      ],
    });
    expect(text).toContain("2 × Custom print: gear (PLA, Black, Express), ready by Fri 4 Dec");
    expect(html).toContain("Custom print: gear (PLA, Black, Express), ready by Fri 4 Dec");
  });

  it("escapes a discount's name in the HTML", () => {
    const { html } = orderConfirmationEmail({
      ...base,
      discounts: [{ label: "Discount (<b>Sale</b>)", on: "items", amountPaise: 100 }],
    });
    expect(html).toContain("Discount (&lt;b&gt;Sale&lt;/b&gt;)");
    expect(html).not.toContain("<b>Sale</b>");
  });

  it("out for delivery names the courier and AWB, and asks a COD customer to keep the cash ready", () => {
    const tracking = { carrier: "Delhivery", trackingNumber: "190410001", trackingUrl: null };
    const paid = orderOutForDeliveryEmail(base, tracking);
    expect(paid.subject).toBe("Order ORD-20261121-0007 is out for delivery");
    expect(paid.text).toContain("out for delivery today with Delhivery, tracking number 190410001");
    expect(paid.text).not.toContain("in cash");
    const cod = orderOutForDeliveryEmail({ ...base, paymentMethod: "cod", paid: false }, tracking);
    expect(cod.text).toContain("Please keep ₹2,256.84 ready in cash.");
    expect(cod.html).toContain("ready in cash");
  });
});
