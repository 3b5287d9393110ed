import { escapeHtml, layout, type RenderedEmail } from "~/lib/email-layout.ts";
import { formatPaise } from "~/rules/money.ts";

/** Staff's answers to a custom-print quote request, as e-mails to the customer. */

const greeting = (name: string) => (name ? `Hi ${name},` : "Hello,");

const quoteBlock = (message: string) =>
  `<p style="margin:0;padding:12px 16px;background:#f6f3ee;border-radius:8px;font-size:15px;line-height:1.6;white-space:pre-wrap">${escapeHtml(message)}</p>`;

export function quoteReplyEmail(d: {
  name: string;
  fileName: string;
  message: string;
  url: string;
}): RenderedEmail {
  const subject = `About your custom print: ${d.fileName}`;
  return {
    subject,
    text: `${greeting(d.name)}\n\nOur team looked at your model ${d.fileName}:\n\n${d.message}\n\nYour quotes: ${d.url}\n\nLayerKart`,
    html: layout(
      subject,
      `${greeting(d.name)} our team looked at your model ${d.fileName}.`,
      { label: "See your quotes", url: d.url },
      "Reply to this e-mail if you have any questions.",
      quoteBlock(d.message),
    ),
  };
}

export function quoteOfferEmail(d: {
  name: string;
  fileName: string;
  message: string;
  unitPricePaise: number;
  quantity: number;
  expiresAt: Date;
  url: string;
}): RenderedEmail {
  const subject = `Your custom print quote: ${d.fileName}`;
  const total = formatPaise(d.unitPricePaise * d.quantity);
  const until = d.expiresAt.toLocaleDateString("en-IN", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Asia/Kolkata",
  });
  const offer = `${d.quantity} × ${formatPaise(d.unitPricePaise)} = ${total}, valid until ${until}.`;
  return {
    subject,
    text: `${greeting(d.name)}\n\nWe can print your model ${d.fileName}: ${offer}\n\n${d.message}\n\nAdd it to your cart here: ${d.url}\n\nLayerKart`,
    html: layout(
      subject,
      `${greeting(d.name)} we can print your model ${d.fileName}: ${offer}`,
      { label: "Add it to your cart", url: d.url },
      "The price is held until the date above.",
      quoteBlock(d.message),
    ),
  };
}
