import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { pinAccepted, replacePinDirectory } from "./pin-directory.server.ts";

/*
 * A database that never ran the shop's start (no directory loaded) refuses no PIN; once loaded,
 * a new data set replaces the old one whole, and the same data set twice changes nothing.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.destroy();
});

const place = (pin: string, district: string) => ({
  pin,
  district,
  state: "Karnataka",
  metro: null,
  specialZone: null,
});

describe(`replacing the PIN directory on ${testDbKind()}`, () => {
  it("empty accepts any well-formed PIN; loaded, only its own; replaced, only the new ones", async () => {
    expect(await pinAccepted(t.db, "999999")).toBe(true);
    await replacePinDirectory(t.db, "test@1", [place("560001", "Bengaluru")]);
    expect(await pinAccepted(t.db, "999999")).toBe(false);
    expect(await pinAccepted(t.db, "560001")).toBe(true);
    await replacePinDirectory(t.db, "test@2", [place("570001", "Mysore")]);
    expect(await pinAccepted(t.db, "560001")).toBe(false);
    expect(await pinAccepted(t.db, "570001")).toBe(true);
    // The same source and count: left as it is.
    await replacePinDirectory(t.db, "test@2", [place("999999", "Nowhere")]);
    expect(await pinAccepted(t.db, "999999")).toBe(false);
  });
});
