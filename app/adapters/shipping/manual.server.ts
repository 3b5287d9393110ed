import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import {
  CarrierError,
  type LabelInput,
  type RateRequest,
  type Serviceability,
  type ShippingCarrier,
  WebhookAuthError,
} from "./types.ts";

/*
 * The manual courier (the default; docs/decisions/0016-courier-adapter.md): today's flow. The
 * shop's rate table prices the parcel and the PIN directory says where it delivers (the shipping
 * module passes that in as `quote`); staff book with the courier themselves and type its name and
 * the AWB; the label is a plain PDF the shop draws. No pickups, no cancellation with a carrier, no
 * tracking: staff mark the order shipped and delivered by hand, and there is no webhook.
 */

export type ManualOptions = {
  /** The shop's own price and days for a parcel (rate table × PIN directory), null: not served. */
  quote: (request: RateRequest) => Promise<{ paise: number; days: number } | null>;
};

export const MANUAL_COURIER_ID = "manual";

export function createManualCarrier(options: ManualOptions): ShippingCarrier {
  return {
    name: "manual",
    async serviceability(request): Promise<Serviceability> {
      const quote = await options.quote(request);
      if (!quote) return { serviceable: false, reason: "We don't deliver to this PIN code yet" };
      return {
        serviceable: true,
        recommendedId: MANUAL_COURIER_ID,
        options: [
          {
            courierId: MANUAL_COURIER_ID,
            courierName: "Your courier (booked by hand)",
            paise: quote.paise,
            codAvailable: true,
            days: quote.days,
            etd: null,
          },
        ],
      };
    },
    async createShipment(request) {
      const courierName = request.manual?.courierName.trim() ?? "";
      const awb = request.manual?.awb.trim() ?? "";
      if (!courierName || !awb) {
        throw new CarrierError("Please enter the courier and its AWB (tracking number).");
      }
      return {
        awb,
        courierId: MANUAL_COURIER_ID,
        courierName,
        carrierOrderId: null,
        carrierShipmentId: null,
      };
    },
    label: drawLabel,
    async requestPickup() {
      // Staff arrange the pickup with their courier; the shop only notes that they did.
      return { scheduledDate: null, token: null };
    },
    async cancel() {},
    async track() {
      return [];
    },
    async parseWebhook() {
      throw new WebhookAuthError("The manual courier sends no tracking updates");
    },
  };
}

const rupeesText = (paise: number) =>
  `Rs. ${(paise / 100).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A 4×6 inch label: from, to, courier, AWB, reference, weight, box and the cash to collect. */
export async function drawLabel(input: LabelInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Shipping label ${input.awb}`);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const charset = new Set(regular.getCharacterSet());
  const clean = (s: string | null | undefined) =>
    [...(s ?? "").normalize("NFKD").replace(/\p{M}/gu, "")]
      .map((c) => (/\s/.test(c) ? " " : charset.has(c.codePointAt(0) ?? 0) ? c : "?"))
      .join("")
      .replace(/ {2,}/g, " ")
      .trim();
  const [width, height] = [288, 432]; // 4 × 6 inches
  const page = pdf.addPage([width, height]);
  const margin = 16;
  let y = height - margin;
  const line = (text: string, font: PDFFont = regular, size = 10) => {
    y -= size + 4;
    let t = clean(text);
    while (t.length > 1 && font.widthOfTextAtSize(t, size) > width - 2 * margin) t = t.slice(0, -1);
    page.drawText(t, { x: margin, y, size, font, color: rgb(0, 0, 0) });
  };
  const rule = () => {
    y -= 8;
    page.drawLine({
      start: { x: margin, y },
      end: { x: width - margin, y },
      thickness: 1,
      color: rgb(0, 0, 0),
    });
  };
  line(input.courierName, bold, 14);
  line(`AWB ${input.awb}`, bold, 18);
  line(`Order ${input.reference}`);
  rule();
  line("Deliver to", bold, 9);
  line(input.to.name, bold, 12);
  line(input.to.line1);
  if (input.to.line2) line(input.to.line2);
  line(`${input.to.city}, ${input.to.state}`);
  line(`PIN ${input.to.pin}`, bold, 14);
  line(`Phone ${input.to.phone}`);
  rule();
  line(
    input.codPaise === null ? "PREPAID" : `COLLECT CASH ${rupeesText(input.codPaise)}`,
    bold,
    13,
  );
  line(
    `Weight ${(input.grams / 1000).toFixed(2)} kg · Box ${input.box.lengthCm}×${input.box.widthCm}×${input.box.heightCm} cm`
      .replace("·", "-")
      .replaceAll("×", "x"),
    regular,
    9,
  );
  rule();
  line("From", bold, 9);
  line(input.from.name, bold, 10);
  // The shop's address may span lines (the settings' text box): up to three of them.
  for (const l of input.from.line1
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean)
    .slice(0, 3)) {
    line(l, regular, 9);
  }
  const place = [input.from.city, input.from.state].filter((x) => x.trim() !== "").join(", ");
  line(place ? `${place} - PIN ${input.from.pin}` : `PIN ${input.from.pin}`, regular, 9);
  if (input.from.phone) line(`Phone ${input.from.phone}`, regular, 9);
  return pdf.save();
}

/** Several labels in one PDF (a day's bulk print), in the order given. */
export async function mergePdfs(files: readonly Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  out.setTitle("Shipping labels");
  for (const bytes of files) {
    const doc = await PDFDocument.load(bytes);
    const pages = await out.copyPages(doc, doc.getPageIndices());
    for (const p of pages) out.addPage(p);
  }
  return out.save();
}
