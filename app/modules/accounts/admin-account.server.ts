import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { account, user, userProfiles } from "~/db/schema.ts";
import type { Auth } from "./auth.server.ts";

/**
 * A verified admin account with a password (the demo seed's admin, and `npm run create-admin`).
 * An existing account with that e-mail is made an admin instead; its password is left alone.
 */
export async function ensureAdminAccount(
  deps: { db: Database; auth: Auth },
  input: { email: string; name: string; password: string },
): Promise<"created" | "promoted" | "already-admin"> {
  const email = input.email.trim().toLowerCase();
  const { db } = deps;
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing) {
    const [profile] = await db
      .select({ isAdmin: userProfiles.isAdmin })
      .from(userProfiles)
      .where(eq(userProfiles.userId, existing.id));
    if (profile?.isAdmin) return "already-admin";
    await db
      .insert(userProfiles)
      .values({ userId: existing.id, email, displayName: input.name, isAdmin: true })
      .onConflictDoUpdate({ target: userProfiles.userId, set: { isAdmin: true } });
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, existing.id));
    return "promoted";
  }
  const ctx = await deps.auth.$context;
  const hash = await ctx.password.hash(input.password);
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(user).values({ id, name: input.name, email, emailVerified: true });
    await tx.insert(account).values({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: hash,
    });
    await tx.insert(userProfiles).values({
      userId: id,
      displayName: input.name,
      email,
      isEmailVerified: true,
      isAdmin: true,
    });
  });
  return "created";
}
