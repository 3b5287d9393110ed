import { eq, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { user, userProfiles } from "~/db/schema.ts";
import type { ProfileInput } from "~/rules/account-schemas.ts";
import {
  type AdminTimezone,
  DEFAULT_ADMIN_TIMEZONE,
  isAdminTimezone,
} from "~/rules/admin-dates.ts";
import { type AdminRuleConfig, qualifiesAsAdmin } from "~/rules/admin-rule.ts";

/** The shop profile of a signed-in customer, as the account page shows it. */
export type Profile = {
  name: string;
  email: string;
  phone: string | null;
  isEmailVerified: boolean;
  isAdmin: boolean;
};

export async function getProfile(db: Database, userId: string): Promise<Profile | null> {
  const [row] = await db
    .select({
      displayName: userProfiles.displayName,
      profileEmail: userProfiles.email,
      phone: userProfiles.phone,
      isEmailVerified: userProfiles.isEmailVerified,
      isAdmin: userProfiles.isAdmin,
      accountName: user.name,
      accountEmail: user.email,
    })
    .from(user)
    .leftJoin(userProfiles, eq(userProfiles.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return null;
  return {
    name: row.displayName ?? row.accountName,
    email: row.accountEmail,
    phone: row.phone ?? null,
    isEmailVerified: row.isEmailVerified ?? false,
    isAdmin: row.isAdmin ?? false,
  };
}

/** Saves the editable part of the profile (name, phone); the e-mail never changes here. */
export async function updateProfile(
  db: Database,
  userId: string,
  input: ProfileInput,
): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    const [account] = await tx
      .update(user)
      .set({ name: input.name, updatedAt: now })
      .where(eq(user.id, userId))
      .returning({ email: user.email, emailVerified: user.emailVerified });
    if (!account) throw new Error("Account not found");
    await tx
      .insert(userProfiles)
      .values({
        userId,
        displayName: input.name,
        email: account.email,
        phone: input.phone,
        isEmailVerified: account.emailVerified,
      })
      .onConflictDoUpdate({
        target: userProfiles.userId,
        set: { displayName: input.name, phone: input.phone, updatedAt: now },
      });
  });
}

/** Keeps the profile's copy of the verified flag in step with the account. */
export async function syncProfileVerified(
  db: Database,
  account: { id: string; emailVerified: boolean },
): Promise<void> {
  await db
    .update(userProfiles)
    .set({ isEmailVerified: account.emailVerified, updatedAt: new Date() })
    .where(eq(userProfiles.userId, account.id));
}

/**
 * On sign-in: the profile records that the e-mail is verified, and a verified account that the
 * admin rule names becomes an admin. The rule only grants; it never takes the flag away.
 */
export async function syncProfileOnSignIn(
  db: Database,
  userId: string,
  admins: AdminRuleConfig,
): Promise<void> {
  const [account] = await db
    .select({ email: user.email, emailVerified: user.emailVerified, name: user.name })
    .from(user)
    .where(eq(user.id, userId));
  if (!account) return;
  const promote = qualifiesAsAdmin(account, admins);
  await db
    .insert(userProfiles)
    .values({
      userId,
      displayName: account.name || null,
      email: account.email,
      isEmailVerified: account.emailVerified,
      isAdmin: promote,
    })
    .onConflictDoUpdate({
      target: userProfiles.userId,
      set: {
        isEmailVerified: account.emailVerified,
        isAdmin: promote ? true : sql`${userProfiles.isAdmin}`,
        updatedAt: new Date(),
      },
    });
}

/** The time zone an admin chose for the admin area's dates (the default until they choose). */
export async function getAdminTimezone(db: Database, userId: string): Promise<AdminTimezone> {
  const [profile] = await db
    .select({ timezone: userProfiles.adminTimezone })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return isAdminTimezone(profile?.timezone) ? profile.timezone : DEFAULT_ADMIN_TIMEZONE;
}

/** Remembers an admin's time zone choice. */
export async function setAdminTimezone(
  db: Database,
  userId: string,
  timezone: AdminTimezone,
): Promise<void> {
  await db
    .update(userProfiles)
    .set({ adminTimezone: timezone, updatedAt: new Date() })
    .where(eq(userProfiles.userId, userId));
}
