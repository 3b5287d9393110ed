import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { addresses, userProfiles } from "~/db/schema.ts";
import type { AddressInput } from "~/rules/address-schema.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import {
  AddressNotFoundError,
  deleteAddress,
  listAddresses,
  saveAddress,
  setDefaultAddress,
} from "./addresses.server.ts";

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
});
afterAll(async () => {
  await harness?.stop();
});

const home: AddressInput = {
  label: "Home",
  name: "Asha Rao",
  line1: "12 MG Road",
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};
const work: AddressInput = {
  ...home,
  label: "Work",
  line1: "4 Residency Road",
  postalCode: "560025",
};

async function newCustomer(tag: string) {
  return createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
}

/** Moves an address's creation time back: addresses saved in one millisecond tie on "newest first". */
const age = (addressId: string, ms: number) =>
  db
    .update(addresses)
    .set({ createdAt: new Date(Date.now() - ms) })
    .where(eq(addresses.id, addressId));

const defaults = async (userId: string) =>
  (await listAddresses(db, userId)).filter((a) => a.isDefault).map((a) => a.id);

describe(`addresses on ${testDbKind()}`, () => {
  it("the first address becomes the default; later ones don't; newest first; line2 null", async () => {
    const { id: userId } = await newCustomer("first");
    const a = await saveAddress(db, userId, home);
    await age(a.addressId, 60_000);
    const b = await saveAddress(db, userId, work);
    const list = await listAddresses(db, userId);
    expect(list.map((x) => x.id)).toEqual([b.addressId, a.addressId]);
    expect(list.map((x) => x.isDefault)).toEqual([false, true]);
    expect(list.every((x) => x.line2 === null)).toBe(true);
    const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
    expect(profile.defaultAddressId).toBe(a.addressId);
  });

  it("Set Default moves the one default; editing keeps it; deleting the default promotes the newest", async () => {
    const { id: userId } = await newCustomer("default");
    const a = await saveAddress(db, userId, home);
    await age(a.addressId, 120_000);
    const b = await saveAddress(db, userId, work);
    await age(b.addressId, 60_000);
    const c = await saveAddress(db, userId, { ...home, label: "Other", city: "Mysuru" });

    await setDefaultAddress(db, userId, b.addressId);
    expect(await defaults(userId)).toEqual([b.addressId]);

    await saveAddress(db, userId, { ...work, city: "Mysore" }, b.addressId);
    const edited = (await listAddresses(db, userId)).find((x) => x.id === b.addressId);
    expect(edited).toMatchObject({ city: "Mysore", isDefault: true });
    // Editing a non-default address leaves it non-default.
    await saveAddress(db, userId, { ...home, city: "Hubli" }, a.addressId);
    expect(await defaults(userId)).toEqual([b.addressId]);

    await deleteAddress(db, userId, b.addressId);
    const left = await listAddresses(db, userId);
    expect(left.map((x) => x.id)).toEqual([c.addressId, a.addressId]);
    expect(await defaults(userId)).toEqual([c.addressId]);
    // Soft delete: the row is kept, marked deleted.
    const [gone] = await db.select().from(addresses).where(eq(addresses.id, b.addressId));
    expect(gone).toMatchObject({ isDeleted: true, isDefault: false });

    await deleteAddress(db, userId, a.addressId);
    await deleteAddress(db, userId, c.addressId);
    expect(await listAddresses(db, userId)).toEqual([]);
    const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
    expect(profile.defaultAddressId).toBeNull();
    // A deleted address can't be changed any more.
    await expect(setDefaultAddress(db, userId, a.addressId)).rejects.toThrow(AddressNotFoundError);
  });

  it("first addresses saved at the same moment still give exactly one default", async () => {
    // Several customers, each saving several first addresses at once (two tabs, a double click).
    const customers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => newCustomer(`race${i}`)),
    );
    await Promise.all(
      customers.flatMap(({ id }) =>
        Array.from({ length: 4 }, (_, i) => saveAddress(db, id, { ...home, line1: `${i} Lane` })),
      ),
    );
    for (const { id } of customers) {
      expect(await listAddresses(db, id)).toHaveLength(4);
      expect(await defaults(id)).toHaveLength(1);
    }
  });

  it("another customer's address ids are refused by every change", async () => {
    const owner = await newCustomer("owner");
    const other = await newCustomer("other");
    const { addressId } = await saveAddress(db, owner.id, home);

    await expect(saveAddress(db, other.id, work, addressId)).rejects.toThrow(AddressNotFoundError);
    await expect(setDefaultAddress(db, other.id, addressId)).rejects.toThrow(AddressNotFoundError);
    await expect(deleteAddress(db, other.id, addressId)).rejects.toThrow(AddressNotFoundError);
    const [row] = await db
      .select()
      .from(addresses)
      .where(and(eq(addresses.id, addressId), eq(addresses.userId, owner.id)));
    expect(row).toMatchObject({ line1: home.line1, isDefault: true, isDeleted: false });

    // Through the /addresses action, as the other customer's browser would send it: 404.
    const { action } = await import("~/routes/addresses.tsx");
    const cookie = await signInCookie(harness.rt.auth, other);
    for (const fields of [
      { intent: "save", addressId, ...work },
      { intent: "set-default", addressId },
      { intent: "delete", addressId },
      { intent: "delete", addressId: "not-a-uuid" },
    ]) {
      const res = await outcome(() =>
        action(routeArgs(formPost("/addresses", fields, { cookie })) as never),
      );
      expect(res.status, fields.intent).toBe(404);
    }
    expect((await listAddresses(db, owner.id)).map((a) => a.id)).toEqual([addressId]);
  });

  it("the action validates like the form and the database refuses what slips past", async () => {
    const customer = await newCustomer("rules");
    const cookie = await signInCookie(harness.rt.auth, customer);
    const { action } = await import("~/routes/addresses.tsx");
    const bad = await outcome(() =>
      action(
        routeArgs(
          formPost(
            "/addresses",
            { intent: "save", ...home, postalCode: "056001", phone: "98765" },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      kind: "invalid",
      fieldErrors: {
        postalCode: "Please enter a valid 6-digit Indian PIN code",
        phone: "Please enter a valid 10-digit mobile number",
      },
    });
    const good = await outcome(() =>
      action(routeArgs(formPost("/addresses", { intent: "save", ...home }, { cookie })) as never),
    );
    expect(good).toMatchObject({ status: 200, body: { kind: "saved" } });

    await expect(saveAddress(db, customer.id, { ...home, postalCode: "012345" })).rejects.toThrow();
  });
});
