import { and, desc, eq, not } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import { addresses, user, userProfiles } from "~/db/schema.ts";
import { pinAccepted } from "~/modules/shipping/pin-directory.server.ts";
import type { AddressInput, SavedAddress } from "~/rules/address-schema.ts";

/*
 * A customer's delivery addresses (SPEC.md §4 Addresses, §7 upsertUserAddress / deleteUserAddress
 * / setDefaultAddress). Every function acts only on the given user's addresses: an id that belongs
 * to someone else is "not found", exactly like an id that does not exist.
 *
 * One default per user: the database's partial unique index enforces it, and each change runs in
 * a transaction that first locks the user's account row, so two changes for one customer (say two
 * tabs adding their first address) queue instead of racing.
 */

export type Address = SavedAddress;

export class AddressNotFoundError extends Error {
  override name = "AddressNotFoundError";
  constructor() {
    super("Address not found");
  }
}

const columns = {
  id: addresses.id,
  label: addresses.label,
  name: addresses.name,
  line1: addresses.line1,
  city: addresses.city,
  state: addresses.state,
  postalCode: addresses.postalCode,
  country: addresses.country,
  phone: addresses.phone,
  isDefault: addresses.isDefault,
  createdAt: addresses.createdAt,
};

const live = (userId: string) => and(eq(addresses.userId, userId), not(addresses.isDeleted));

/** A well-formed PIN code that India's PIN directory doesn't have (issue 24). */
export class UnknownPinError extends Error {
  override name = "UnknownPinError";
  readonly pin: string;
  constructor(pin: string) {
    super(`Unknown PIN code ${pin}`);
    this.pin = pin;
  }
}

/** The user's addresses, newest first, deleted ones left out. */
export async function listAddresses(db: Database, userId: string): Promise<Address[]> {
  const rows = await db
    .select(columns)
    .from(addresses)
    .where(live(userId))
    .orderBy(desc(addresses.createdAt), desc(addresses.id));
  return rows.map((r) => ({ ...r, line2: null, createdAt: r.createdAt.toISOString() }));
}

async function lockUser(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.id, userId))
    .for("update");
  if (!row) throw new AddressNotFoundError();
}

async function findOwn(tx: Tx, userId: string, addressId: string) {
  const [row] = await tx
    .select({ id: addresses.id, isDefault: addresses.isDefault })
    .from(addresses)
    .where(and(live(userId), eq(addresses.id, addressId)));
  if (!row) throw new AddressNotFoundError();
  return row;
}

async function recordDefault(tx: Tx, userId: string, addressId: string | null) {
  await tx
    .update(userProfiles)
    .set({ defaultAddressId: addressId, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
}

/**
 * Adds an address (the user's first becomes the default) or edits one of theirs (its default
 * flag stays as it is). `line2` is always stored as null. Returns the address id. A PIN code
 * the directory doesn't have is refused (UnknownPinError).
 */
export async function saveAddress(
  db: Database,
  userId: string,
  input: AddressInput,
  addressId?: string,
): Promise<{ addressId: string }> {
  const values = {
    label: input.label,
    name: input.name,
    line1: input.line1,
    line2: null,
    city: input.city,
    state: input.state,
    postalCode: input.postalCode,
    country: input.country,
    phone: input.phone,
  };
  if (!(await pinAccepted(db, input.postalCode))) throw new UnknownPinError(input.postalCode);
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    if (addressId) {
      await findOwn(tx, userId, addressId);
      await tx
        .update(addresses)
        .set({ ...values, updatedAt: new Date() })
        .where(and(live(userId), eq(addresses.id, addressId)));
      return { addressId };
    }
    const [existing] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(live(userId))
      .limit(1);
    const isDefault = !existing;
    const [created] = await tx
      .insert(addresses)
      .values({ ...values, userId, isDefault })
      .returning({ id: addresses.id });
    if (isDefault) await recordDefault(tx, userId, created.id);
    return { addressId: created.id };
  });
}

/** Makes one of the user's addresses the default, and no other. */
export async function setDefaultAddress(
  db: Database,
  userId: string,
  addressId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    await findOwn(tx, userId, addressId);
    // Clear first: the partial unique index allows one default at any moment.
    await tx
      .update(addresses)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
    await tx
      .update(addresses)
      .set({ isDefault: true, updatedAt: new Date() })
      .where(and(live(userId), eq(addresses.id, addressId)));
    await recordDefault(tx, userId, addressId);
  });
}

/**
 * Deletes (softly) one of the user's addresses. When it was the default, the newest remaining
 * address becomes the default.
 */
export async function deleteAddress(
  db: Database,
  userId: string,
  addressId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const target = await findOwn(tx, userId, addressId);
    await tx
      .update(addresses)
      .set({ isDeleted: true, isDefault: false, updatedAt: new Date() })
      .where(eq(addresses.id, addressId));
    if (!target.isDefault) return;
    const [next] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(live(userId))
      .orderBy(desc(addresses.createdAt), desc(addresses.id))
      .limit(1);
    if (next) {
      await tx
        .update(addresses)
        .set({ isDefault: true, updatedAt: new Date() })
        .where(eq(addresses.id, next.id));
    }
    await recordDefault(tx, userId, next?.id ?? null);
  });
}
