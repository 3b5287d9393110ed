import { PDFDocument } from "pdf-lib";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { formatRupees } from "~/rules/gst.ts";
import { orderTotals } from "~/rules/totals.ts";
import { type InvoiceDocument, renderInvoicePdf, toWinAnsi } from "./invoice-pdf.server.ts";

const address = (state: string, name = "Asha Rao") => ({
  name,
  line1: "42, 2nd Main Road, Indiranagar",
  line2: null,
  city: state === "Karnataka" ? "Bengaluru" : "Mumbai",
  state,
  postalCode: state === "Karnataka" ? "560038" : "400001",
  country: "India",
  phone: "9876543210",
});

type Line = InvoiceDocument["lines"][number];

function invoice(deliveryState: string, lines: Line[], overrides: Partial<InvoiceDocument> = {}) {
  const subtotal = lines.reduce((s, l) => s + l.quantity * l.unitPricePaise, 0);
  const totals = orderTotals(subtotal, {
    shippingFeePaise: 999,
    taxRateBasisPoints: 800,
    freeShippingThresholdPaise: null,
  });
  return {
    invoiceNumber: "INV/2026-27/000042",
    invoiceDate: new Date("2026-11-21T10:00:00Z"),
    orderNumber: "ORD-20261121-0007",
    orderDate: new Date("2026-11-20T18:45:00Z"),
    paymentMethod: "UPI (PhonePe)",
    paymentStatus: "paid",
    shop: {
      name: "LayerKart",
      address: "14, 3rd Cross, Koramangala 5th Block, Bengaluru, Karnataka 560095",
      phone: "+91 80 4567 8910",
      email: "hello@layerkart.example",
      gstin: "29ABCDE1234F1Z5",
      state: "Karnataka",
    },
    billTo: address(deliveryState),
    shipTo: address(deliveryState),
    lines,
    ...totals,
    taxRateBasisPoints: 800,
    ...overrides,
  } satisfies InvoiceDocument;
}

const lines: Line[] = [
  { name: "Articulated Dragon (Silk Gold)", hsnCode: "3926", quantity: 2, unitPricePaise: 49_900 },
  { name: "Spiral Vase", hsnCode: "3924", quantity: 1, unitPricePaise: 129_900 },
];

async function textOf(pdf: Uint8Array): Promise<{ text: string; pages: number }> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(proxy, { mergePages: true });
  return { text: text.replace(/\s+/g, " "), pages: totalPages };
}

describe("renderInvoicePdf", () => {
  it("renders an intra-state invoice with CGST and SGST", async () => {
    const doc = invoice("karnataka ", lines);
    const pdf = await renderInvoicePdf(doc);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    const { text, pages } = await textOf(pdf);
    expect(pages).toBe(1);
    expect(text).toContain("TAX INVOICE");
    expect(text).toContain("INV/2026-27/000042");
    expect(text).toContain("ORD-20261121-0007");
    expect(text).toContain("29ABCDE1234F1Z5");
    expect(text).toContain("CGST");
    expect(text).toContain("SGST");
    expect(text).not.toContain("IGST");
    // 2 × 499 + 1,299 = 2,297; tax 8% = 183.76; shipping 9.99
    expect(doc.totalPaise).toBe(229_700 + 18_376 + 999);
    expect(text).toContain(formatRupees(doc.totalPaise));
    expect(text).toContain("Rs. 2,490.75");
    expect(text).toContain("Rs. 91.88"); // CGST and SGST, each half of 183.76
    expect(text).toContain("Rupees Two Thousand Four Hundred Ninety and Seventy Five Paise Only");
    expect(text).toContain("Place of Supply");
    expect(text).toContain("This is a computer-generated invoice.");
    expect(text).toContain("9965");
    expect(text).toContain("Paid");
  });

  it("renders an inter-state invoice with IGST only", async () => {
    const doc = invoice("Maharashtra", lines);
    const { text } = await textOf(await renderInvoicePdf(doc));
    expect(text).toContain("INV/2026-27/000042");
    expect(text).toContain("ORD-20261121-0007");
    expect(text).toContain("29ABCDE1234F1Z5");
    expect(text).toContain("IGST");
    expect(text).not.toContain("CGST");
    expect(text).not.toContain("SGST");
    expect(text).toContain("Rs. 183.76");
    expect(text).toContain("Maharashtra (27)");
    expect(text).toContain(formatRupees(doc.totalPaise));
  });

  it("sets the title and author", async () => {
    const pdf = await PDFDocument.load(await renderInvoicePdf(invoice("Karnataka", lines)));
    expect(pdf.getTitle()).toBe("Tax Invoice INV/2026-27/000042");
    expect(pdf.getAuthor()).toBe("LayerKart");
    expect(pdf.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
  });

  it("flows a long order onto further pages with the table header repeated", async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      name: `Print ${i + 1}`,
      hsnCode: "3926",
      quantity: (i % 3) + 1,
      unitPricePaise: 10_000 + i * 137,
    }));
    const doc = invoice("Karnataka", many);
    const { text, pages } = await textOf(await renderInvoicePdf(doc));
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain("TAX INVOICE (continued)");
    expect(text.match(/Taxable/g)?.length).toBeGreaterThan(pages);
    expect(text).toContain("Print 60");
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain(formatRupees(doc.totalPaise));
  });

  it("wraps or truncates long names and never throws on text the fonts cannot draw", async () => {
    const doc = invoice(
      "Karnataka",
      [
        {
          name: "🐉 ड्रैगन — नमस्ते Articulated Dragon 👨‍👩‍👧 ".repeat(12),
          hsnCode: "3926",
          quantity: 1,
          unitPricePaise: 99_900,
        },
        { name: "x".repeat(400), hsnCode: "3926", quantity: 1, unitPricePaise: 100 },
        { name: "Café ₹ Ōsaka\tvase\u0000", hsnCode: "3924", quantity: 3, unitPricePaise: 50_000 },
      ],
      {
        billTo: { ...address("Karnataka", "आशा राव 😀"), line2: "फ्लैट 3, ಬೆಂಗಳೂರು" },
        shop: { ...invoice("Karnataka", lines).shop, name: "LayerKart 🖨️" },
        paymentMethod: "UPI ✓",
      },
    );
    const pdf = await renderInvoicePdf(doc);
    const { text } = await textOf(pdf);
    expect(text).toContain("Articulated Dragon");
    expect(text).toContain("Café Rs. Osaka vase");
    expect(text).toContain(formatRupees(doc.totalPaise));
  });

  it("an order without discounts has no Discount column or rows", async () => {
    const { text } = await textOf(await renderInvoicePdf(invoice("Karnataka", lines)));
    expect(text).not.toContain("Discount");
    expect(text).not.toContain("Value of goods");
    expect(text).toContain("Tax is charged on the value of the goods; shipping is not taxed.");
  });

  it("shows each line's discount, tax on the discounted value and the code in the totals", async () => {
    // DIWALI20: 20% capped at ₹300 on ₹2,297 → ₹300, shared 998 : 1,299 (13,034 and 16,966).
    const discountedLines = [
      { ...lines[0], discountPaise: 13_034 },
      { ...lines[1], discountPaise: 16_966 },
    ];
    // Taxable 1,997.00; 8% = 159.76; shipping 9.99, free with FREESHIP.
    const doc = invoice("Karnataka", discountedLines, {
      subtotalPaise: 229_700,
      discountPaise: 30_999,
      shippingPaise: 999,
      taxPaise: 15_976,
      totalPaise: 229_700 - 30_000 + 15_976,
      appliedDiscounts: [
        {
          discountId: "7b0c8a52-6f5e-4a8e-9d43-2f8f1d4c1a01",
          code: "DIWALI20",
          name: "Diwali 20% off",
          kind: "percent",
          itemsPaise: 30_000,
          shippingPaise: 0,
        },
        {
          discountId: "7b0c8a52-6f5e-4a8e-9d43-2f8f1d4c1a02",
          code: "FREESHIP",
          name: "Free shipping",
          kind: "free_shipping",
          itemsPaise: 0,
          shippingPaise: 999,
        },
      ],
    });
    const { text } = await textOf(await renderInvoicePdf(doc));
    expect(text).toContain("Discount");
    expect(text).toContain("130.34"); // the dragons' share
    expect(text).toContain("867.66"); // 998.00 − 130.34
    expect(text).toContain("1,129.34"); // 1,299.00 − 169.66
    expect(text).toContain("Value of goods Rs. 2,297.00");
    expect(text).toContain("Discount (DIWALI20) -Rs. 300.00");
    expect(text).toContain("Taxable value Rs. 1,997.00");
    // 159.76 shared 867.66 : 1,129.34 (69.41 and 90.35), each line's split into CGST and SGST.
    expect(text).toContain("34.70 34.71 937.07");
    expect(text).toContain("CGST @ 4% Rs. 79.87");
    expect(text).toContain("SGST @ 4% Rs. 79.89");
    expect(text).toContain("Total 3 309.99 1,997.00");
    expect(text).toContain("Free shipping (FREESHIP) -Rs. 9.99");
    expect(text).toContain(formatRupees(doc.totalPaise));
    expect(text).toContain("Rupees Two Thousand One Hundred Fifty Six and Seventy Six Paise Only");
    expect(text).toContain("after discounts");
  });

  it("refuses a discount that does not match the order's", async () => {
    const doc = invoice("Karnataka", [{ ...lines[0], discountPaise: 1_000 }], {
      subtotalPaise: 99_800,
      discountPaise: 2_000,
      shippingPaise: 0,
      taxPaise: 7_904,
      totalPaise: 99_800 - 1_000 + 7_904,
    });
    // The 1,000 the line doesn't carry would be a shipping discount of an order with no shipping.
    await expect(renderInvoicePdf(doc)).rejects.toThrow(/shipping discount/);
    await expect(
      renderInvoicePdf({ ...doc, discountPaise: 500, totalPaise: doc.totalPaise }),
    ).rejects.toThrow(/does not add up/);
  });

  it("refuses figures that do not add up to the order's total", async () => {
    const doc = invoice("Karnataka", lines);
    await expect(renderInvoicePdf({ ...doc, totalPaise: doc.totalPaise + 1 })).rejects.toThrow(
      /does not add up/,
    );
  });
});

describe("toWinAnsi", () => {
  const charset = new Set([...Array.from({ length: 95 }, (_, i) => 32 + i), 0xe9, 0x2026]);

  it("keeps what the font draws and replaces the rest", () => {
    expect(toWinAnsi("Plain text 123", charset)).toBe("Plain text 123");
    expect(toWinAnsi("Café…", charset)).toBe("Café…");
    expect(toWinAnsi("Ōsaka", charset)).toBe("Osaka");
    expect(toWinAnsi("₹500", charset)).toBe("Rs.500");
    expect(toWinAnsi("a\tb\nc", charset)).toBe("a b c");
    expect(toWinAnsi("😀!", charset)).toBe("?!");
    expect(toWinAnsi("👍🏽", charset)).toBe("?");
    expect(toWinAnsi("नमस्ते", charset)).toBe("????");
    expect(toWinAnsi("a\u200Db\u0000", charset)).toBe("ab");
  });
});
