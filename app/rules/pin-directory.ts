import { isIndianState } from "./settings-schema.ts";

/*
 * India's PIN code directory as the shop keeps it (table pin_codes, app/modules/shipping): one row
 * per PIN with its district (shown as the city), its state under the names GST uses
 * (app/rules/settings-schema.ts), the metro it belongs to and its special courier zone. The data
 * set lists post offices (several per PIN); `collapsePostOffices` makes one row of them.
 * docs/decisions/0013-pin-directory.md says where the data comes from.
 */

/** The special courier zones (issue 24): couriers charge and take longer for these. */
export const SPECIAL_ZONES = [
  "north-east",
  "jammu-kashmir",
  "ladakh",
  "andaman-nicobar",
  "lakshadweep",
] as const;
export type SpecialZone = (typeof SPECIAL_ZONES)[number];

export type PinPlace = {
  pin: string;
  /** The district, shown as the city ("Kolkata"). */
  district: string;
  state: string;
  /** The metro area the PIN lies in ("Delhi NCR"), or null. */
  metro: string | null;
  specialZone: SpecialZone | null;
};

/** A PIN code as India Post writes it: 6 digits, the first not 0. */
export const PIN_PATTERN = /^[1-9]\d{5}$/;
export const isPinCode = (value: string) => PIN_PATTERN.test(value);

/** The data set's state names that differ from GST's. */
const STATE_NAMES: Record<string, string> = {
  "Andaman & Nicobar Islands": "Andaman and Nicobar Islands",
  "Andaman & Nicobar": "Andaman and Nicobar Islands",
  Chattisgarh: "Chhattisgarh",
  "Jammu & Kashmir": "Jammu and Kashmir",
  Pondicherry: "Puducherry",
  "Dadra & Nagar Haveli": "Dadra and Nagar Haveli and Daman and Diu",
  "Daman & Diu": "Dadra and Nagar Haveli and Daman and Diu",
  Orissa: "Odisha",
  Uttaranchal: "Uttarakhand",
};

/** Ladakh's districts: a union territory since 2019, still filed under Jammu & Kashmir. */
const LADAKH_DISTRICTS = new Set(["leh", "leh ladakh", "kargil"]);

/** A state name from the data set as GST names it; null when it is no Indian state. */
export function normaliseState(state: string, district: string): string | null {
  const name = STATE_NAMES[state.trim()] ?? state.trim();
  if (
    (name === "Jammu and Kashmir" || name === "Ladakh") &&
    LADAKH_DISTRICTS.has(district.trim().toLowerCase())
  ) {
    return "Ladakh";
  }
  return isIndianState(name) ? name : null;
}

const NORTH_EAST = new Set([
  "Arunachal Pradesh",
  "Assam",
  "Manipur",
  "Meghalaya",
  "Mizoram",
  "Nagaland",
  "Sikkim",
  "Tripura",
]);

export function specialZoneOf(state: string): SpecialZone | null {
  if (NORTH_EAST.has(state)) return "north-east";
  if (state === "Jammu and Kashmir") return "jammu-kashmir";
  if (state === "Ladakh") return "ladakh";
  if (state === "Andaman and Nicobar Islands") return "andaman-nicobar";
  if (state === "Lakshadweep") return "lakshadweep";
  return null;
}

/** The metros couriers rate as such, by the districts that make them up. */
const METROS: Array<{ metro: string; state: string; districts: string[] }> = [
  { metro: "Delhi NCR", state: "Delhi", districts: ["*"] },
  { metro: "Delhi NCR", state: "Haryana", districts: ["gurgaon", "gurugram", "faridabad"] },
  {
    metro: "Delhi NCR",
    state: "Uttar Pradesh",
    districts: ["gautam buddha nagar", "ghaziabad"],
  },
  { metro: "Mumbai", state: "Maharashtra", districts: ["mumbai", "mumbai city", "thane"] },
  { metro: "Pune", state: "Maharashtra", districts: ["pune"] },
  { metro: "Kolkata", state: "West Bengal", districts: ["kolkata", "howrah"] },
  { metro: "Chennai", state: "Tamil Nadu", districts: ["chennai"] },
  {
    metro: "Bengaluru",
    state: "Karnataka",
    districts: ["bengaluru", "bangalore", "bangalore urban", "bengaluru urban"],
  },
  { metro: "Hyderabad", state: "Telangana", districts: ["hyderabad", "k.v.rangareddy"] },
  { metro: "Ahmedabad", state: "Gujarat", districts: ["ahmedabad"] },
];

export function metroOf(state: string, district: string): string | null {
  const d = district.trim().toLowerCase();
  for (const m of METROS) {
    if (m.state === state && (m.districts.includes("*") || m.districts.includes(d))) return m.metro;
  }
  return null;
}

export type PostOfficeRow = { pin: string; state: string; district: string };

/** The value seen most often (the first of equals), counting in insertion order. */
function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0];
  for (const [v, n] of counts) if (n > (counts.get(best) ?? 0)) best = v;
  return best;
}

/**
 * One place per PIN from the post offices the data set lists: the state and district most of its
 * offices give (a PIN on a district border lists offices in both). Rows with a malformed PIN or a
 * state that isn't India's are left out.
 */
export function collapsePostOffices(rows: Iterable<PostOfficeRow>): PinPlace[] {
  const byPin = new Map<string, Array<{ state: string; district: string }>>();
  for (const row of rows) {
    const pin = row.pin.trim();
    const district = row.district.trim();
    if (!isPinCode(pin) || !district) continue;
    const state = normaliseState(row.state, district);
    if (!state) continue;
    let offices = byPin.get(pin);
    if (!offices) {
      offices = [];
      byPin.set(pin, offices);
    }
    offices.push({ state, district });
  }
  const places: PinPlace[] = [];
  for (const [pin, offices] of byPin) {
    const state = mostCommon(offices.map((o) => o.state));
    const district = mostCommon(offices.filter((o) => o.state === state).map((o) => o.district));
    places.push({
      pin,
      district,
      state,
      metro: metroOf(state, district),
      specialZone: specialZoneOf(state),
    });
  }
  return places.sort((a, b) => (a.pin < b.pin ? -1 : a.pin > b.pin ? 1 : 0));
}
