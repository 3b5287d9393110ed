import { PDFDocument } from "pdf-lib";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { createManualCarrier, mergePdfs } from "./manual.server.ts";
import { CarrierError, type LabelInput, WebhookAuthError } from "./types.ts";

const carrier = createManualCarrier({
  quote: async (r) => (r.deliveryPin === "799999" ? null : { paise: 6_000, days: 4 }),
});

const label: LabelInput = {
  awb: "DTDC123",
  courierName: "DTDC",
  carrierOrderId: null,
  carrierShipmentId: null,
  reference: "ORD-20261120-1111",
  from: {
    name: "LayerKart",
    line1: "1 MG Road",
    city: "Bengaluru",
    state: "Karnataka",
    pin: "560001",
    phone: "",
  },
  to: {
    name: "ஆஷா Rao ✓",
    line1: "12 Park Street",
    line2: null,
    city: "Kolkata",
    state: "West Bengal",
    pin: "700016",
    phone: "9876543210",
    email: "asha@example.com",
  },
  grams: 700,
  box: { lengthCm: 20, widthCm: 15, heightCm: 10 },
  codPaise: 55_000,
};

describe("manual courier", () => {
  it("prices by the shop's own table and says when a PIN isn't served", async () => {
    const served = await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "700016",
      grams: 500,
      cod: true,
    });
    expect(served).toMatchObject({ serviceable: true, options: [{ paise: 6_000, days: 4 }] });
    expect(
      await carrier.serviceability({
        pickupPin: "560001",
        deliveryPin: "799999",
        grams: 500,
        cod: false,
      }),
    ).toMatchObject({ serviceable: false });
  });

  it("books with the courier and AWB staff typed, and refuses a booking without them", async () => {
    const base = {
      reference: "R",
      orderDate: new Date(),
      to: label.to,
      items: [],
      cod: false,
      totalPaise: 0,
      subTotalPaise: 0,
      grams: 500,
      box: label.box,
      courierId: null,
    };
    expect(
      await carrier.createShipment({ ...base, manual: { courierName: " DTDC ", awb: " A1 " } }),
    ).toMatchObject({
      courierName: "DTDC",
      awb: "A1",
    });
    await expect(
      carrier.createShipment({ ...base, manual: { courierName: "", awb: "A1" } }),
    ).rejects.toBeInstanceOf(CarrierError);
  });

  it("draws a one-page label PDF (any script in a name is printable) and merges labels", async () => {
    const pdf = await carrier.label(label);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    const merged = await PDFDocument.load(await mergePdfs([pdf, pdf, pdf]));
    expect(merged.getPageCount()).toBe(3);
  });

  it("prints the shop's whole address in the from block: its lines, city, state and PIN", async () => {
    const textOf = async (input: LabelInput) => {
      const proxy = await getDocumentProxy(new Uint8Array(await carrier.label(input)));
      const { text } = await extractText(proxy, { mergePages: true });
      return text.replace(/\s+/g, " ");
    };
    const from = (await textOf(label)).split("From ")[1];
    expect(from).toContain("LayerKart 1 MG Road Bengaluru, Karnataka - PIN 560001");
    // An address typed over two lines keeps both; a city the directory doesn't know is left out.
    const twoLines = await textOf({
      ...label,
      from: {
        ...label.from,
        line1: "Unit 4, Peenya\nIndustrial Area",
        city: "",
        phone: "080 1234",
      },
    });
    expect(twoLines.split("From ")[1]).toContain(
      "Unit 4, Peenya Industrial Area Karnataka - PIN 560001 Phone 080 1234",
    );
  });

  it("has no tracking and refuses every webhook", async () => {
    expect(await carrier.track("A1")).toEqual([]);
    await expect(
      carrier.parseWebhook({ headers: new Headers(), rawBody: "{}" }),
    ).rejects.toBeInstanceOf(WebhookAuthError);
  });
});
