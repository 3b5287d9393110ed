import { describe, expect, it } from "vitest";
import { collapsePostOffices, metroOf, normaliseState, specialZoneOf } from "./pin-directory.ts";
import { isIndianState } from "./settings-schema.ts";

describe("the PIN directory's rows", () => {
  it("names states as GST does, Ladakh apart from Jammu and Kashmir", () => {
    expect(normaliseState("Chattisgarh", "Raipur")).toBe("Chhattisgarh");
    expect(normaliseState("Pondicherry", "Pondicherry")).toBe("Puducherry");
    expect(normaliseState("Andaman & Nicobar Islands", "South Andaman")).toBe(
      "Andaman and Nicobar Islands",
    );
    expect(normaliseState("Jammu & Kashmir", "Srinagar")).toBe("Jammu and Kashmir");
    expect(normaliseState("Jammu & Kashmir", "Leh")).toBe("Ladakh");
    expect(normaliseState("Jammu & Kashmir", "Kargil")).toBe("Ladakh");
    expect(normaliseState("Dadra and Nagar Haveli and Daman and Diu", "Daman")).toBe(
      "Dadra and Nagar Haveli and Daman and Diu",
    );
    expect(normaliseState("Atlantis", "X")).toBeNull();
  });

  it("knows the metros and the special zones", () => {
    expect(metroOf("Delhi", "South West Delhi")).toBe("Delhi NCR");
    expect(metroOf("Haryana", "Gurgaon")).toBe("Delhi NCR");
    expect(metroOf("Karnataka", "Bengaluru")).toBe("Bengaluru");
    expect(metroOf("Karnataka", "Mysore")).toBeNull();
    expect(specialZoneOf("Assam")).toBe("north-east");
    expect(specialZoneOf("Sikkim")).toBe("north-east");
    expect(specialZoneOf("Jammu and Kashmir")).toBe("jammu-kashmir");
    expect(specialZoneOf("Ladakh")).toBe("ladakh");
    expect(specialZoneOf("Lakshadweep")).toBe("lakshadweep");
    expect(specialZoneOf("Karnataka")).toBeNull();
  });

  it("one row per PIN: the state and district most of its post offices give", () => {
    const places = collapsePostOffices([
      { pin: "110001", state: "Delhi", district: "New Delhi" },
      { pin: "110001", state: "Delhi", district: "Central Delhi" },
      { pin: "110001", state: "Delhi", district: "Central Delhi" },
      { pin: "012345", state: "Delhi", district: "Nowhere" },
      { pin: "999999", state: "Atlantis", district: "Nowhere" },
      { pin: "194101", state: "Jammu & Kashmir", district: "Leh" },
    ]);
    expect(places).toEqual([
      {
        pin: "110001",
        district: "Central Delhi",
        state: "Delhi",
        metro: "Delhi NCR",
        specialZone: null,
      },
      { pin: "194101", district: "Leh", state: "Ladakh", metro: null, specialZone: "ladakh" },
    ]);
    for (const p of places) expect(isIndianState(p.state)).toBe(true);
  });
});
