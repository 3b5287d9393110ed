import { escapeHtml, layout, type RenderedEmail } from "~/lib/email-layout.ts";
import { formatPaise } from "~/rules/money.ts";
import { paymentMethodLabel } from "~/rules/orders.ts";
import { shortDate } from "~/rules/working-days.ts";

/** The order e-mails: confirmation, shipped (with tracking), delivered. */

export type OrderEmailData = {
  customerName: string;
  orderNumber: string;
  ordersUrl: string;
  /** `readyBy`: a custom part's ready-by day (yyyy-mm-dd, India), said after its name. */
  items: Array<{
    name: string;
    quantity: number;
    unitPricePaise: number;
    readyBy?: string | null;
  }>;
  subtotalPaise: number;
  /** The codes and offers ("Discount (DIWALI20)"), off the items or off the shipping. */
  discounts: Array<{ label: string; on: "items" | "shipping"; amountPaise: number }>;
  /** Before any shipping discount. */
  shippingPaise: number;
  /** The cash-on-delivery fee (0, or absent, when paid online). */
  codFeePaise?: number;
  taxPaise: number;
  totalPaise: number;
  paymentMethod: string;
  paymentProvider: string;
  /** The payment was taken (a cancelled order's e-mail then promises the refund). */
  paid: boolean;
  address: { name: string; line1: string; city: string; state: string; postalCode: string };
};

const greeting = (name: string) => (name ? `Hi ${name},` : "Hi,");

/** "Custom print: gear (PLA, Black, Express), ready by Fri 4 Dec". */
const itemName = (i: OrderEmailData["items"][number]) =>
  i.readyBy ? `${i.name}, ready by ${shortDate(i.readyBy)}` : i.name;

/** The summary's rows: subtotal, item discounts, shipping, shipping discounts, COD fee, tax. */
function summaryRows(d: OrderEmailData): Array<[string, string]> {
  const off = (on: "items" | "shipping") =>
    d.discounts
      .filter((x) => x.on === on && x.amountPaise > 0)
      .map((x): [string, string] => [x.label, `−${formatPaise(x.amountPaise)}`]);
  return [
    ["Subtotal", formatPaise(d.subtotalPaise)],
    ...off("items"),
    ["Shipping", formatPaise(d.shippingPaise)],
    ...off("shipping"),
    ...(d.codFeePaise
      ? [["Cash on delivery fee", formatPaise(d.codFeePaise)] as [string, string]]
      : []),
    ["Tax", formatPaise(d.taxPaise)],
  ];
}

function itemsText(d: OrderEmailData) {
  const lines = d.items.map(
    (i) => `  ${i.quantity} × ${itemName(i)}  ${formatPaise(i.unitPricePaise * i.quantity)}`,
  );
  const rows: Array<[string, string]> = [...summaryRows(d), ["Total", formatPaise(d.totalPaise)]];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [...lines, "", ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join(
    "\n",
  );
}

function itemsHtml(d: OrderEmailData) {
  const row = (left: string, right: string, bold = false) =>
    `<tr><td style="padding:4px 0;font-size:14px${bold ? ";font-weight:700" : ""}">${left}</td><td align="right" style="padding:4px 0;font-size:14px${bold ? ";font-weight:700" : ""}">${right}</td></tr>`;
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${d.items
    .map((i) =>
      row(
        `${i.quantity} × ${escapeHtml(itemName(i))}`,
        escapeHtml(formatPaise(i.unitPricePaise * i.quantity)),
      ),
    )
    .join("")}
${summaryRows(d)
  .map(([label, value]) => row(escapeHtml(label), escapeHtml(value)))
  .join("\n")}
${row("Total", escapeHtml(formatPaise(d.totalPaise)), true)}</table>`;
}

const addressLine = (a: OrderEmailData["address"]) =>
  `${a.name}, ${a.line1}, ${a.city}, ${a.state} ${a.postalCode}`;

export function orderConfirmationEmail(d: OrderEmailData): RenderedEmail {
  const method = paymentMethodLabel(d.paymentMethod, d.paymentProvider);
  const paid =
    d.paymentMethod === "cod"
      ? `You'll pay ${formatPaise(d.totalPaise)} in cash when it arrives.`
      : `We've received your payment of ${formatPaise(d.totalPaise)} (${method}).`;
  return {
    subject: `Order ${d.orderNumber} confirmed`,
    text: `${greeting(d.customerName)}\n\nThank you for your order ${d.orderNumber}. ${paid} We're getting it ready and will e-mail you when it ships.\n\n${itemsText(d)}\n\nDelivering to: ${addressLine(d.address)}\n\nSee your orders: ${d.ordersUrl}\n\nLayerKart`,
    html: layout(
      `Order ${d.orderNumber} confirmed`,
      `${greeting(d.customerName)} thank you for your order. ${paid} We're getting it ready and will e-mail you when it ships.`,
      { label: "View your orders", url: d.ordersUrl },
      `Delivering to: ${addressLine(d.address)}`,
      itemsHtml(d),
    ),
  };
}

export type Tracking = { carrier: string; trackingNumber: string; trackingUrl: string | null };

export function orderShippedEmail(d: OrderEmailData, t: Tracking): RenderedEmail {
  const tracking = `${t.carrier}, tracking number ${t.trackingNumber}`;
  return {
    subject: `Order ${d.orderNumber} has shipped`,
    text: `${greeting(d.customerName)}\n\nYour order ${d.orderNumber} is on its way with ${tracking}.${t.trackingUrl ? `\nTrack it: ${t.trackingUrl}` : ""}\n\nDelivering to: ${addressLine(d.address)}\n\nSee your orders: ${d.ordersUrl}\n\nLayerKart`,
    html: layout(
      `Order ${d.orderNumber} has shipped`,
      `${greeting(d.customerName)} your order is on its way with ${tracking}.`,
      {
        label: t.trackingUrl ? "Track your package" : "View your orders",
        url: t.trackingUrl ?? d.ordersUrl,
      },
      `Delivering to: ${addressLine(d.address)}`,
    ),
  };
}

export function orderOutForDeliveryEmail(d: OrderEmailData, t: Tracking): RenderedEmail {
  const tracking = `${t.carrier}, tracking number ${t.trackingNumber}`;
  return {
    subject: `Order ${d.orderNumber} is out for delivery`,
    text: `${greeting(d.customerName)}\n\nYour order ${d.orderNumber} is out for delivery today with ${tracking}. Please keep your phone nearby: the courier may call before they arrive.${d.paymentMethod === "cod" && !d.paid ? ` Please keep ${formatPaise(d.totalPaise)} ready in cash.` : ""}${t.trackingUrl ? `\nTrack it: ${t.trackingUrl}` : ""}\n\nDelivering to: ${addressLine(d.address)}\n\nSee your orders: ${d.ordersUrl}\n\nLayerKart`,
    html: layout(
      `Order ${d.orderNumber} is out for delivery`,
      `${greeting(d.customerName)} your order is out for delivery today with ${tracking}. Please keep your phone nearby: the courier may call before they arrive.${d.paymentMethod === "cod" && !d.paid ? ` Please keep ${formatPaise(d.totalPaise)} ready in cash.` : ""}`,
      {
        label: t.trackingUrl ? "Track your package" : "View your orders",
        url: t.trackingUrl ?? d.ordersUrl,
      },
      `Delivering to: ${addressLine(d.address)}`,
    ),
  };
}

export function orderDeliveredEmail(d: OrderEmailData): RenderedEmail {
  return {
    subject: `Order ${d.orderNumber} was delivered`,
    text: `${greeting(d.customerName)}\n\nYour order ${d.orderNumber} was delivered. We hope you love your prints! You can review them from your orders page:\n\n${d.ordersUrl}\n\nLayerKart`,
    html: layout(
      `Order ${d.orderNumber} was delivered`,
      `${greeting(d.customerName)} your order was delivered. We hope you love your prints! Tell other makers what you think by reviewing them.`,
      { label: "Review your items", url: d.ordersUrl },
      "Something not right? You can request a return from your orders page.",
    ),
  };
}

export function orderCancelledEmail(d: OrderEmailData): RenderedEmail {
  const money = d.paid
    ? `We'll refund ${formatPaise(d.totalPaise)} to your original payment method within 7 days.`
    : "You haven't been charged for it.";
  return {
    subject: `Order ${d.orderNumber} was cancelled`,
    text: `${greeting(d.customerName)}\n\nYour order ${d.orderNumber} was cancelled. ${money} If you didn't expect this, reply to this e-mail or contact us.\n\n${itemsText(d)}\n\nSee your orders: ${d.ordersUrl}\n\nLayerKart`,
    html: layout(
      `Order ${d.orderNumber} was cancelled`,
      `${greeting(d.customerName)} your order was cancelled. ${money}`,
      { label: "View your orders", url: d.ordersUrl },
      "If you didn't expect this, reply to this e-mail or contact us.",
      itemsHtml(d),
    ),
  };
}
