import {
  type Color,
  PageSizes,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  rgb,
  StandardFonts,
} from "pdf-lib";
import type { AppliedDiscount } from "~/rules/discounts.ts";
import {
  amountInWords,
  formatIndianAmount,
  formatInvoiceDate,
  formatPercent,
  formatRupees,
  type GstBreakdown,
  gstBreakdown,
  gstStateCode,
  invoiceMismatches,
  placeOfSupply,
} from "~/rules/gst.ts";
import {
  discountTotals,
  type OrderDiscountRow,
  orderDiscountRows,
} from "~/rules/order-discounts.ts";
import type { AddressSnapshot } from "~/rules/stored-shapes.ts";

/*
 * The GST tax invoice of an order as an A4 PDF (pdf-lib, the standard Helvetica fonts). Every
 * figure comes from app/rules/gst.ts. The standard fonts only draw WinAnsi, so amounts read
 * "Rs. 1,23,456.78" and any text they cannot draw (emoji, Devanagari…) becomes "?". An order with
 * discounts gets a Discount column (each line's share; the taxable value is what is left) and its
 * codes and offers named in the totals; one without is drawn as before discounts existed.
 */

/** The invoice's parties: an order's address snapshot without its book-keeping fields. */
export type InvoiceAddress = Omit<AddressSnapshot, "addressId" | "label">;

export type InvoiceDocument = {
  invoiceNumber: string;
  invoiceDate: Date;
  orderNumber: string;
  orderDate: Date;
  paymentMethod: string;
  paymentStatus: string;
  shop: {
    name: string;
    address: string;
    phone: string;
    email: string;
    gstin: string;
    state: string;
  };
  billTo: InvoiceAddress;
  shipTo: InvoiceAddress;
  lines: Array<{
    name: string;
    hsnCode: string;
    quantity: number;
    unitPricePaise: number;
    /** The line's share of the item discounts (order_items.discount_paise). */
    discountPaise?: number;
  }>;
  subtotalPaise: number;
  /** Before any shipping discount. */
  shippingPaise: number;
  /** The cash-on-delivery fee (0, or absent, when paid online). */
  codFeePaise?: number;
  taxPaise: number;
  /** Items and shipping discounts together (orders.discount_paise). */
  discountPaise: number;
  /** The codes and offers the order was placed with (orders.applied_discounts). */
  appliedDiscounts?: readonly AppliedDiscount[];
  totalPaise: number;
  taxRateBasisPoints: number;
};

// ---------------------------------------------------------------------------------------------
// Text that the standard fonts can draw
// ---------------------------------------------------------------------------------------------

/** Characters worth spelling out rather than replacing with "?". */
const REPLACEMENTS: Record<string, string> = {
  "\u20B9": "Rs.", // ₹
  "\u2212": "-", // minus sign
  "\u2010": "-",
  "\u2011": "-",
  "\u2032": "'",
  "\u2033": '"',
};

const INVISIBLE = /^[\p{Cc}\p{Cf}\p{M}\p{Emoji_Modifier}]$/u;

/**
 * `text` limited to the characters in `charset` (a standard font's WinAnsi set): whitespace becomes
 * a space, invisible joiners and marks that cannot be drawn disappear, accented letters lose the
 * accent when only that is missing, and anything else becomes "?".
 */
export function toWinAnsi(text: string, charset: ReadonlySet<number>): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0) ?? 0;
    if (charset.has(cp)) {
      out += ch;
    } else if (/^\s$/u.test(ch)) {
      out += " ";
    } else if (ch in REPLACEMENTS) {
      out += REPLACEMENTS[ch];
    } else {
      const plain = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      if (plain.length > 0 && [...plain].every((c) => charset.has(c.codePointAt(0) ?? 0))) {
        out += plain;
      } else if (!INVISIBLE.test(ch)) {
        out += "?";
      }
    }
  }
  return out;
}

/** A single line of text for print: WinAnsi only, whitespace collapsed, trimmed. */
function clean(text: string | null | undefined, charset: ReadonlySet<number>): string {
  return toWinAnsi(text ?? "", charset)
    .replace(/ {2,}/g, " ")
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 36;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
/** Nothing but the footer goes below this. */
const BOTTOM = MARGIN + 26;
const CELL_PAD = 3;
const ELLIPSIS = "\u2026";

const INK = rgb(0.11, 0.12, 0.14);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.78, 0.8, 0.84);
const HEADER_FILL = rgb(0.92, 0.93, 0.95);
const TITLE = rgb(0.1, 0.2, 0.4);

type Align = "left" | "right" | "center";

type Column = { header: string[]; width: number; align: Align };

type Fonts = { regular: PDFFont; bold: PDFFont };

class Layout {
  readonly pdf: PDFDocument;
  readonly fonts: Fonts;
  readonly charset: ReadonlySet<number>;
  page!: PDFPage;
  /** The top of the free space on the current page. */
  y = 0;

  constructor(pdf: PDFDocument, fonts: Fonts, charset: ReadonlySet<number>) {
    this.pdf = pdf;
    this.fonts = fonts;
    this.charset = charset;
  }

  addPage(): void {
    this.page = this.pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  /** Whether `height` more points fit above the footer. */
  fits(height: number): boolean {
    return this.y - height >= BOTTOM;
  }

  clean(text: string | null | undefined): string {
    return clean(text, this.charset);
  }

  width(text: string, bold: boolean, size: number): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, size);
  }

  /** Draws one line of already-clean text with its baseline at `baseline`. */
  text(
    text: string,
    x: number,
    baseline: number,
    opts: { size: number; bold?: boolean; color?: Color; align?: Align; width?: number },
  ): void {
    if (text === "") return;
    const bold = opts.bold ?? false;
    const w = this.width(text, bold, opts.size);
    const box = opts.width ?? 0;
    const left =
      opts.align === "right" ? x + box - w : opts.align === "center" ? x + (box - w) / 2 : x;
    this.page.drawText(text, {
      x: left,
      y: baseline,
      size: opts.size,
      font: bold ? this.fonts.bold : this.fonts.regular,
      color: opts.color ?? INK,
    });
  }

  /** `text` shortened with an ellipsis until it fits `maxWidth`. */
  truncate(text: string, bold: boolean, size: number, maxWidth: number): string {
    if (this.width(text, bold, size) <= maxWidth) return text;
    let cut = text;
    while (cut.length > 0 && this.width(`${cut}${ELLIPSIS}`, bold, size) > maxWidth) {
      cut = cut.slice(0, -1);
    }
    return cut.length > 0 ? `${cut.trimEnd()}${ELLIPSIS}` : "";
  }

  /** The largest size up to `size` (down to 5 pt) at which `text` fits; truncated if none does. */
  fit(text: string, bold: boolean, size: number, maxWidth: number): { text: string; size: number } {
    let s = size;
    while (s > 5 && this.width(text, bold, s) > maxWidth) s -= 0.25;
    return { text: this.truncate(text, bold, s, maxWidth), size: s };
  }

  /** Clean text in lines no wider than `maxWidth`; past `maxLines` it ends in an ellipsis. */
  wrap(raw: string, bold: boolean, size: number, maxWidth: number, maxLines = 50): string[] {
    const words = this.clean(raw).split(" ").filter(Boolean);
    const lines: string[] = [];
    let current = "";
    const push = (word: string) => {
      // A word wider than the line is broken wherever it must be.
      let rest = word;
      while (this.width(rest, bold, size) > maxWidth && rest.length > 1) {
        let n = rest.length - 1;
        while (n > 1 && this.width(rest.slice(0, n), bold, size) > maxWidth) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      current = rest;
    };
    for (const word of words) {
      const candidate = current === "" ? word : `${current} ${word}`;
      if (this.width(candidate, bold, size) <= maxWidth) {
        current = candidate;
      } else {
        if (current !== "") lines.push(current);
        push(word);
      }
    }
    if (current !== "") lines.push(current);
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = this.truncate(
      `${kept[maxLines - 1]}${ELLIPSIS}`,
      bold,
      size,
      maxWidth,
    ).replace(/\u2026\u2026$/, ELLIPSIS);
    return kept;
  }

  /** Draws wrapped lines from the top `top`; returns the y below them. */
  paragraph(
    lines: string[],
    x: number,
    top: number,
    opts: { size: number; bold?: boolean; color?: Color; align?: Align; width?: number },
  ): number {
    const leading = opts.size * 1.3;
    let y = top;
    for (const line of lines) {
      this.text(line, x, y - opts.size, opts);
      y -= leading;
    }
    return y;
  }

  rule(y: number, x = MARGIN, width = CONTENT_WIDTH, thickness = 0.6, color: Color = RULE): void {
    this.page.drawLine({
      start: { x, y },
      end: { x: x + width, y },
      thickness,
      color,
    });
  }
}

const capitalise = (s: string) => (s === "" ? s : `${s[0].toUpperCase()}${s.slice(1)}`);

function stateWithCode(state: string): string {
  const code = gstStateCode(state);
  return code ? `${state} (Code ${code})` : state;
}

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

function drawShopHeader(l: Layout, doc: InvoiceDocument): void {
  const top = l.y;
  const leftWidth = CONTENT_WIDTH * 0.62;
  let y = l.paragraph(l.wrap(doc.shop.name, true, 15, leftWidth, 2), MARGIN, top, {
    size: 15,
    bold: true,
    color: TITLE,
  });
  y -= 2;
  y = l.paragraph(l.wrap(doc.shop.address, false, 8.5, leftWidth, 3), MARGIN, y, { size: 8.5 });
  const contact = [
    doc.shop.phone.trim() && `Phone: ${doc.shop.phone}`,
    doc.shop.email.trim() && `E-mail: ${doc.shop.email}`,
  ]
    .filter(Boolean)
    .join("   |   ");
  y = l.paragraph(l.wrap(contact, false, 8.5, leftWidth, 2), MARGIN, y, { size: 8.5 });
  y = l.paragraph(l.wrap(`GSTIN: ${doc.shop.gstin}`, true, 8.5, leftWidth, 1), MARGIN, y, {
    size: 8.5,
    bold: true,
  });
  y = l.paragraph(
    l.wrap(`State: ${stateWithCode(l.clean(doc.shop.state))}`, false, 8.5, leftWidth, 1),
    MARGIN,
    y,
    { size: 8.5 },
  );

  const right = { x: MARGIN + leftWidth, width: CONTENT_WIDTH - leftWidth };
  l.text("TAX INVOICE", right.x, top - 16, {
    size: 16,
    bold: true,
    color: TITLE,
    align: "right",
    width: right.width,
  });
  l.text("Original for recipient", right.x, top - 29, {
    size: 8,
    color: MUTED,
    align: "right",
    width: right.width,
  });

  l.y = Math.min(y, top - 34) - 6;
  l.rule(l.y, MARGIN, CONTENT_WIDTH, 1.2, INK);
  l.y -= 8;
}

function drawMeta(l: Layout, doc: InvoiceDocument, breakdown: GstBreakdown): void {
  const half = CONTENT_WIDTH / 2;
  const labelWidth = 82;
  const supply =
    breakdown.supply === "intra-state" ? "Intra-state (CGST + SGST)" : "Inter-state (IGST)";
  const columns: Array<Array<[string, string]>> = [
    [
      ["Invoice No.", doc.invoiceNumber],
      ["Invoice Date", formatInvoiceDate(doc.invoiceDate)],
      ["Place of Supply", placeOfSupply(l.clean(doc.shipTo.state))],
    ],
    [
      ["Order No.", doc.orderNumber],
      ["Order Date", formatInvoiceDate(doc.orderDate)],
      ["Supply Type", supply],
      ["Reverse Charge", "No"],
    ],
  ];
  let bottom = l.y;
  columns.forEach((rows, i) => {
    const x = MARGIN + i * half;
    let y = l.y;
    for (const [label, value] of rows) {
      l.text(label, x, y - 9, { size: 8.5, bold: true, color: MUTED });
      const bold = label === "Invoice No." || label === "Order No.";
      const fitted = l.fit(l.clean(value), bold, 9, half - labelWidth - 8);
      l.text(fitted.text, x + labelWidth, y - 9, { size: fitted.size, bold });
      y -= 13;
    }
    bottom = Math.min(bottom, y);
  });
  l.y = bottom - 6;
}

function addressLines(a: InvoiceAddress): string[] {
  return [
    a.line1,
    a.line2 ?? "",
    [a.city, a.state]
      .map((s) => s.trim())
      .filter(Boolean)
      .join(", ") + (a.postalCode.trim() ? ` - ${a.postalCode.trim()}` : ""),
    a.country,
    a.phone.trim() ? `Phone: ${a.phone}` : "",
  ].filter((s) => s.trim() !== "");
}

function drawAddresses(l: Layout, doc: InvoiceDocument): void {
  const gap = 14;
  const width = (CONTENT_WIDTH - gap) / 2;
  const top = l.y;
  let bottom = top;
  const blocks: Array<[string, InvoiceAddress]> = [
    ["Bill To", doc.billTo],
    ["Ship To", doc.shipTo],
  ];
  blocks.forEach(([heading, address], i) => {
    const x = MARGIN + i * (width + gap);
    l.page.drawRectangle({ x, y: top - 15, width, height: 15, color: HEADER_FILL });
    l.text(heading.toUpperCase(), x + 5, top - 11, { size: 8, bold: true, color: MUTED });
    let y = top - 19;
    y = l.paragraph(l.wrap(address.name, true, 9, width - 10, 2), x + 5, y, {
      size: 9,
      bold: true,
    });
    for (const line of addressLines(address)) {
      y = l.paragraph(l.wrap(line, false, 8.5, width - 10, 3), x + 5, y, { size: 8.5 });
    }
    bottom = Math.min(bottom, y);
  });
  l.y = bottom - 10;
}

function tableColumns(breakdown: GstBreakdown): Column[] {
  const rates = breakdown.rates;
  if (breakdown.totals.discountPaise > 0) return discountedColumns(breakdown);
  const fixed: Column[] =
    rates.kind === "cgst-sgst"
      ? [
          { header: ["Taxable", "Value"], width: 64, align: "right" },
          { header: ["CGST", formatPercent(rates.cgstPercent)], width: 54, align: "right" },
          { header: ["SGST", formatPercent(rates.sgstPercent)], width: 54, align: "right" },
          { header: ["Amount"], width: 66, align: "right" },
        ]
      : [
          { header: ["Taxable", "Value"], width: 70, align: "right" },
          { header: ["IGST", formatPercent(rates.igstPercent)], width: 66, align: "right" },
          { header: ["Amount"], width: 70, align: "right" },
        ];
  const lead: Column[] = [
    { header: ["#"], width: 18, align: "right" },
    { header: ["Item"], width: 0, align: "left" },
    { header: ["HSN/", "SAC"], width: 38, align: "left" },
    { header: ["Qty"], width: 28, align: "right" },
    { header: ["Rate"], width: 58, align: "right" },
  ];
  const columns = [...lead, ...fixed];
  columns[1].width = CONTENT_WIDTH - columns.reduce((s, c) => s + c.width, 0);
  return columns;
}

/** The columns of an invoice with discounts: each line's discount before its taxable value. */
function discountedColumns(breakdown: GstBreakdown): Column[] {
  const rates = breakdown.rates;
  const taxes: Column[] =
    rates.kind === "cgst-sgst"
      ? [
          { header: ["CGST", formatPercent(rates.cgstPercent)], width: 48, align: "right" },
          { header: ["SGST", formatPercent(rates.sgstPercent)], width: 48, align: "right" },
        ]
      : [{ header: ["IGST", formatPercent(rates.igstPercent)], width: 60, align: "right" }];
  const columns: Column[] = [
    { header: ["#"], width: 18, align: "right" },
    { header: ["Item"], width: 0, align: "left" },
    { header: ["HSN/", "SAC"], width: 36, align: "left" },
    { header: ["Qty"], width: 26, align: "right" },
    { header: ["Rate"], width: 54, align: "right" },
    { header: ["Discount"], width: 52, align: "right" },
    { header: ["Taxable", "Value"], width: 60, align: "right" },
    ...taxes,
    { header: ["Amount"], width: 62, align: "right" },
  ];
  columns[1].width = CONTENT_WIDTH - columns.reduce((s, c) => s + c.width, 0);
  return columns;
}

const TABLE_SIZE = 8;
const TABLE_LEADING = 10;
const HEADER_HEIGHT = 24;

function drawTableHeader(l: Layout, columns: Column[]): void {
  const top = l.y;
  l.page.drawRectangle({
    x: MARGIN,
    y: top - HEADER_HEIGHT,
    width: CONTENT_WIDTH,
    height: HEADER_HEIGHT,
    color: HEADER_FILL,
  });
  let x = MARGIN;
  for (const col of columns) {
    const lines = col.header;
    const first = top - (HEADER_HEIGHT - lines.length * 9) / 2 - 7.5;
    lines.forEach((line, i) => {
      l.text(line, x + CELL_PAD, first - i * 9, {
        size: 7.5,
        bold: true,
        align: col.align,
        width: col.width - 2 * CELL_PAD,
      });
    });
    x += col.width;
  }
  l.y = top - HEADER_HEIGHT;
  l.rule(l.y, MARGIN, CONTENT_WIDTH, 0.8, INK);
}

/** One table row: the item column wraps (at most 3 lines); the others shrink to fit. */
function drawRow(
  l: Layout,
  columns: Column[],
  cells: string[],
  opts: { bold?: boolean; onNewPage: () => void; ruleAbove?: boolean },
): void {
  const bold = opts.bold ?? false;
  const itemLines = l.wrap(cells[1], bold, TABLE_SIZE, columns[1].width - 2 * CELL_PAD, 3);
  const height = Math.max(1, itemLines.length) * TABLE_LEADING + 6;
  if (!l.fits(height)) opts.onNewPage();
  const top = l.y;
  if (opts.ruleAbove) l.rule(top, MARGIN, CONTENT_WIDTH, 0.8, INK);
  const baseline = top - 3 - TABLE_SIZE;
  let x = MARGIN;
  columns.forEach((col, i) => {
    const inner = col.width - 2 * CELL_PAD;
    if (i === 1) {
      itemLines.forEach((line, n) => {
        l.text(line, x + CELL_PAD, baseline - n * TABLE_LEADING, { size: TABLE_SIZE, bold });
      });
    } else {
      const fitted = l.fit(l.clean(cells[i]), bold, TABLE_SIZE, inner);
      l.text(fitted.text, x + CELL_PAD, baseline, {
        size: fitted.size,
        bold,
        align: col.align,
        width: inner,
      });
    }
    x += col.width;
  });
  l.y = top - height;
  l.rule(l.y);
}

function drawContinuationHeader(l: Layout, doc: InvoiceDocument): void {
  const top = l.y;
  const left = l.fit(l.clean(doc.shop.name), true, 11, CONTENT_WIDTH * 0.55);
  l.text(left.text, MARGIN, top - 11, { size: left.size, bold: true, color: TITLE });
  l.text("TAX INVOICE (continued)", MARGIN, top - 11, {
    size: 11,
    bold: true,
    color: TITLE,
    align: "right",
    width: CONTENT_WIDTH,
  });
  const ref = l.fit(
    l.clean(`Invoice No. ${doc.invoiceNumber}   |   Order No. ${doc.orderNumber}`),
    false,
    8.5,
    CONTENT_WIDTH,
  );
  l.text(ref.text, MARGIN, top - 25, { size: ref.size, color: MUTED });
  l.y = top - 31;
  l.rule(l.y, MARGIN, CONTENT_WIDTH, 1, INK);
  l.y -= 8;
}

function drawTotals(
  l: Layout,
  doc: InvoiceDocument,
  breakdown: GstBreakdown,
  discounts: readonly OrderDiscountRow[],
): void {
  const t = breakdown.totals;
  const rows: Array<[string, string]> = [];
  // Discounts named one by one: the goods' value less each item discount is the taxable value.
  if (t.itemDiscountPaise > 0) rows.push(["Value of goods", formatRupees(t.grossValuePaise)]);
  for (const d of discounts) {
    if (d.on === "items") rows.push([d.label, formatRupees(-d.amountPaise)]);
  }
  rows.push(["Taxable value", formatRupees(t.taxableValuePaise)]);
  if (breakdown.rates.kind === "cgst-sgst") {
    rows.push([`CGST @ ${formatPercent(breakdown.rates.cgstPercent)}`, formatRupees(t.cgstPaise)]);
    rows.push([`SGST @ ${formatPercent(breakdown.rates.sgstPercent)}`, formatRupees(t.sgstPaise)]);
  } else {
    rows.push([`IGST @ ${formatPercent(breakdown.rates.igstPercent)}`, formatRupees(t.igstPaise)]);
  }
  rows.push(["Shipping", formatRupees(t.shippingPaise)]);
  for (const d of discounts) {
    if (d.on === "shipping") rows.push([d.label, formatRupees(-d.amountPaise)]);
  }
  if (t.codFeePaise > 0) rows.push(["Cash on delivery fee", formatRupees(t.codFeePaise)]);

  const boxWidth = 220;
  const boxX = MARGIN + CONTENT_WIDTH - boxWidth;
  const leftWidth = CONTENT_WIDTH - boxWidth - 20;
  const words = l.wrap(amountInWords(t.grandTotalPaise), false, 8.5, leftWidth, 4);
  const rowHeight = 14;
  const boxHeight = rows.length * rowHeight + 24;
  const leftHeight = 14 + words.length * 11 + 10 + 3 * 12;
  if (!l.fits(Math.max(boxHeight, leftHeight) + 30)) {
    l.addPage();
    drawContinuationHeader(l, doc);
  }

  const top = l.y - 8;
  // Totals, right.
  let y = top;
  for (const [label, value] of rows) {
    const fitted = l.fit(l.clean(label), false, 8.5, boxWidth - 100);
    l.text(fitted.text, boxX + 6, y - 10, { size: fitted.size, color: MUTED });
    l.text(value, boxX, y - 10, { size: 8.5, align: "right", width: boxWidth - 6 });
    y -= rowHeight;
  }
  l.page.drawRectangle({
    x: boxX,
    y: y - 20,
    width: boxWidth,
    height: 20,
    color: HEADER_FILL,
  });
  l.rule(y, boxX, boxWidth, 1, INK);
  l.text("Grand Total", boxX + 6, y - 14, { size: 10, bold: true });
  const grand = l.fit(formatRupees(t.grandTotalPaise), true, 10, boxWidth - 90);
  l.text(grand.text, boxX, y - 14, {
    size: grand.size,
    bold: true,
    align: "right",
    width: boxWidth - 6,
  });
  const boxBottom = y - 20;

  // Amount in words and payment, left.
  let ly = top;
  l.text("Amount in words", MARGIN, ly - 9, { size: 8, bold: true, color: MUTED });
  ly = l.paragraph(words, MARGIN, ly - 12, { size: 8.5, bold: true });
  ly -= 8;
  const payment: Array<[string, string]> = [
    ["Payment method", doc.paymentMethod],
    ["Payment status", capitalise(doc.paymentStatus.trim())],
  ];
  for (const [label, value] of payment) {
    l.text(label, MARGIN, ly - 9, { size: 8, bold: true, color: MUTED });
    const fitted = l.fit(l.clean(value), false, 8.5, leftWidth - 80);
    l.text(fitted.text, MARGIN + 80, ly - 9, { size: fitted.size });
    ly -= 12;
  }
  l.y = Math.min(ly, boxBottom) - 14;
}

function drawClosing(l: Layout, doc: InvoiceDocument, discounted: boolean): void {
  const lines = l.wrap(
    discounted
      ? "Tax is charged on the value of the goods after discounts; shipping is not taxed. Amounts are in Indian rupees."
      : "Tax is charged on the value of the goods; shipping is not taxed. Amounts are in Indian rupees.",
    false,
    7.5,
    CONTENT_WIDTH,
    2,
  );
  const signatory = l.fit(l.clean(`For ${doc.shop.name}`), true, 8.5, CONTENT_WIDTH / 2);
  const height = lines.length * 10 + 20;
  if (!l.fits(height)) {
    l.addPage();
    drawContinuationHeader(l, doc);
  }
  const y = l.paragraph(lines, MARGIN, l.y, { size: 7.5, color: MUTED });
  l.text(signatory.text, MARGIN, y - 12, {
    size: signatory.size,
    bold: true,
    align: "right",
    width: CONTENT_WIDTH,
  });
  l.y = y - 20;
}

function drawFooters(l: Layout, doc: InvoiceDocument): void {
  const pages = l.pdf.getPages();
  const invoice = l.fit(l.clean(doc.invoiceNumber), false, 7.5, CONTENT_WIDTH / 3 - 10);
  pages.forEach((page, i) => {
    l.page = page;
    l.rule(MARGIN + 14);
    l.text(invoice.text, MARGIN, MARGIN + 4, { size: invoice.size, color: MUTED });
    l.text("This is a computer-generated invoice.", MARGIN, MARGIN + 4, {
      size: 7.5,
      color: MUTED,
      align: "center",
      width: CONTENT_WIDTH,
    });
    l.text(`Page ${i + 1} of ${pages.length}`, MARGIN, MARGIN + 4, {
      size: 7.5,
      color: MUTED,
      align: "right",
      width: CONTENT_WIDTH,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------------

/**
 * Renders an order's GST tax invoice. Throws when the lines, tax and shipping do not add up to the
 * order's subtotal and total (an invoice must show what was charged); text never makes it throw.
 */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  const discounts = orderDiscountRows({
    appliedDiscounts: doc.appliedDiscounts,
    discountPaise: doc.discountPaise,
    lineDiscountPaise: doc.lines.reduce((s, line) => s + (line.discountPaise ?? 0), 0),
  });
  const breakdown = gstBreakdown({
    lines: doc.lines,
    shippingPaise: doc.shippingPaise,
    shippingDiscountPaise: discountTotals(discounts).shippingPaise,
    codFeePaise: doc.codFeePaise ?? 0,
    taxPaise: doc.taxPaise,
    taxRateBasisPoints: doc.taxRateBasisPoints,
    shopState: doc.shop.state,
    deliveryState: doc.shipTo.state,
  });
  const mismatches = invoiceMismatches(breakdown, doc);
  if (mismatches.length > 0) {
    throw new Error(`Invoice ${doc.invoiceNumber} does not add up: ${mismatches.join("; ")}`);
  }

  const pdf = await PDFDocument.create();
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const boldSet = new Set(fonts.bold.getCharacterSet());
  const charset = new Set(fonts.regular.getCharacterSet().filter((cp) => boldSet.has(cp)));
  const l = new Layout(pdf, fonts, charset);

  const shopName = doc.shop.name.trim() || "Shop";
  pdf.setTitle(`Tax Invoice ${doc.invoiceNumber}`, { showInWindowTitleBar: true });
  pdf.setAuthor(shopName);
  pdf.setSubject(`GST tax invoice for order ${doc.orderNumber}`);
  pdf.setKeywords(["tax invoice", "GST", doc.invoiceNumber, doc.orderNumber]);
  pdf.setCreator(shopName);
  pdf.setProducer("LayerKart");
  pdf.setLanguage("en-IN");
  pdf.setCreationDate(doc.invoiceDate);
  pdf.setModificationDate(doc.invoiceDate);

  l.addPage();
  drawShopHeader(l, doc);
  drawMeta(l, doc, breakdown);
  drawAddresses(l, doc);

  const columns = tableColumns(breakdown);
  drawTableHeader(l, columns);
  const onNewPage = () => {
    l.addPage();
    drawContinuationHeader(l, doc);
    drawTableHeader(l, columns);
  };
  const intra = breakdown.rates.kind === "cgst-sgst";
  const t = breakdown.totals;
  const discounted = t.discountPaise > 0;
  /** The Discount column's cell, on an invoice that has one. */
  const off = (paise: number) => (discounted ? [paise > 0 ? formatIndianAmount(paise) : "-"] : []);
  for (const line of breakdown.lines) {
    const tax =
      line.kind === "cgst-sgst"
        ? [formatIndianAmount(line.cgstPaise), formatIndianAmount(line.sgstPaise)]
        : [formatIndianAmount(line.igstPaise)];
    drawRow(
      l,
      columns,
      [
        String(line.position),
        line.name,
        line.hsnCode,
        String(line.quantity),
        formatIndianAmount(line.unitPricePaise),
        ...off(line.discountPaise),
        formatIndianAmount(line.taxableValuePaise),
        ...tax,
        formatIndianAmount(line.amountPaise),
      ],
      { onNewPage },
    );
  }
  const shipping = breakdown.shipping;
  drawRow(
    l,
    columns,
    [
      "",
      "Shipping charges (not taxed)",
      shipping.hsnCode,
      "",
      formatIndianAmount(shipping.valuePaise),
      ...off(shipping.discountPaise),
      "-",
      ...(intra ? ["0.00", "0.00"] : ["0.00"]),
      formatIndianAmount(shipping.amountPaise),
    ],
    { onNewPage },
  );
  if (breakdown.codFee) {
    drawRow(
      l,
      columns,
      [
        "",
        "Cash on delivery fee (not taxed)",
        breakdown.codFee.hsnCode,
        "",
        formatIndianAmount(breakdown.codFee.valuePaise),
        ...off(0),
        "-",
        ...(intra ? ["0.00", "0.00"] : ["0.00"]),
        formatIndianAmount(breakdown.codFee.amountPaise),
      ],
      { onNewPage },
    );
  }
  drawRow(
    l,
    columns,
    [
      "",
      "Total",
      "",
      String(breakdown.lines.reduce((s, line) => s + line.quantity, 0)),
      "",
      ...off(t.discountPaise),
      formatIndianAmount(t.taxableValuePaise),
      ...(intra
        ? [formatIndianAmount(t.cgstPaise), formatIndianAmount(t.sgstPaise)]
        : [formatIndianAmount(t.igstPaise)]),
      formatIndianAmount(t.grandTotalPaise),
    ],
    { bold: true, onNewPage, ruleAbove: true },
  );

  drawTotals(l, doc, breakdown, discounts);
  drawClosing(l, doc, discounted);
  drawFooters(l, doc);

  return pdf.save();
}
