/*
 * The shapes of the values the database keeps in JSON columns (app/db/schema.ts types its columns
 * with them). Declared here so that rules and components, which never import the schema, can use
 * them too.
 */

export type ProductImage = { url: string; storagePath: string | null };
/** An option value of an ordered item as it was when ordered (issue 22), e.g. Colour: Red. */
export type OrderedOption = { name: string; value: string };
export type StaticReview = {
  rating: number;
  name: string;
  title: string;
  review: string;
  date: string;
};

export type AddressSnapshot = {
  addressId: string | null;
  label: string;
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  phone: string;
};

export type ShippingMethod = {
  id: string;
  label: string;
  costPaise: number;
  /** The courier zone and chargeable weight the rate was computed for (orders since issue 24). */
  zone?: string;
  chargeableGrams?: number;
  /** The courier whose rate was charged, when the shop prices by its courier (decision 0019). */
  courierId?: string;
  courierName?: string;
};

export type ReturnItem = {
  orderItemId: string;
  productId: string | null;
  name: string;
  quantity: number;
};

/** The raw measurements of an uploaded model, in the file's own coordinates. */
export type StoredGeometry = {
  format: string;
  fileUnit: string | null;
  triangles: number;
  vertices: number;
  volume: number;
  area: number;
  size: { x: number; y: number; z: number };
  watertight: boolean;
  openEdges: number;
  nonManifoldEdges: number;
  invertedNormals: boolean;
  /** Shells facing opposite ways (a cavity or an inside-out part): priced by staff. */
  mixedShells?: boolean;
  /** Separate bodies (shells) in the file (absent on quotes made before it was counted: 1). */
  bodyCount?: number;
  /** Each body's measurements, largest first, when there are several (and not too many). */
  bodies?: StoredBody[];
  /** Overhangs, support and wall thickness (absent on quotes made before they were checked). */
  printability?: StoredPrintability;
  /** One part of a file cut into several (a 3MF's object or a separate body); absent: the whole file. */
  part?: { kind: "object" | "body"; index: number; of: number };
};

/** The printability checks of an uploaded model, in the file's own units. */
export type StoredPrintability = {
  /** Outward normal of the face laid on the bed. */
  down: { x: number; y: number; z: number };
  bedArea: number;
  overhangArea: number;
  supportVolume: number;
  /** [thickness, area], thinnest first. */
  walls: Array<[number, number]>;
  wallArea: number;
};

/** One separate body of an uploaded model, in the file's own coordinates. */
export type StoredBody = {
  volume: number;
  area: number;
  size: { x: number; y: number; z: number };
  triangles: number;
};

/** What became of a customer's uploaded model (the quotes table's status). */
export const quoteStatuses = [
  /** uploaded and analysed; nothing chosen yet */
  "draft",
  /** priced and in the customer's cart (its custom part product exists) */
  "in_cart",
  /** the customer asked staff to look at it */
  "review_requested",
  /** staff answered with a price the customer can accept */
  "offered",
  /** paid for */
  "ordered",
  /** staff closed the request without an offer */
  "closed",
] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];

/**
 * What the slicer made of a priced part (docs/decisions/0020), per piece. `key` names the pricing
 * it was asked for: a result for an older pricing is dropped.
 */
export type StoredSlice = {
  key: string;
  status: "queued" | "done" | "failed";
  /** The quote engine's instant figures, kept for staff beside the slicer's. */
  instant: { grams: number; supportGrams: number; printMinutes: number; unitPricePaise: number };
  slicer?: string;
  slicedAt?: string;
  grams?: number;
  /** Null when the slicer's output didn't say. */
  supportGrams?: number | null;
  printMinutes?: number;
  /** The price per piece the slicer's figures give, and what became of it. */
  slicedUnitPricePaise?: number;
  outcome?: SliceOutcome;
  /** Why it failed (time-out, error, a warning that makes its figures unreliable). */
  error?: string;
};

export type SliceOutcome =
  | "updated"
  | "within-tolerance"
  | "paid"
  | "awaiting-payment"
  | "staff-priced"
  | "not-in-cart";
