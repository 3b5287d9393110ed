import { asc, count, desc, eq, ilike, or } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { user, userProfiles } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { type AdminRuleConfig, qualifiesAsAdmin } from "~/rules/admin-rule.ts";

/*
 * Admin users screen (SPEC.md §2: Admin or User badge; issue 7: search, grant or revoke admin
 * with confirmation; nobody can remove the last admin).
 */

export const USERS_PAGE_SIZE = 50;

export type AdminUserRow = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  isAdmin: boolean;
  createdAt: string;
  /** The sign-in admin rule (ADMIN_EMAILS / ADMIN_EMAIL_DOMAIN) names this account. */
  adminByConfiguration: boolean;
};

export type UsersPage = {
  users: AdminUserRow[];
  page: number;
  pageCount: number;
  total: number;
  admins: number;
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Users newest first, optionally those whose name or e-mail contains `query`. */
export async function listUsers(
  db: Database,
  options: { query?: string; page?: number; adminRule: AdminRuleConfig },
): Promise<UsersPage> {
  const q = options.query?.trim().slice(0, 200);
  const pattern = q ? `%${escapeLike(q)}%` : null;
  const where = pattern
    ? or(
        ilike(userProfiles.displayName, pattern),
        ilike(user.name, pattern),
        ilike(user.email, pattern),
      )
    : undefined;
  const [[{ n: total }], [{ n: admins }]] = await Promise.all([
    db
      .select({ n: count() })
      .from(userProfiles)
      .innerJoin(user, eq(user.id, userProfiles.userId))
      .where(where),
    db.select({ n: count() }).from(userProfiles).where(eq(userProfiles.isAdmin, true)),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1) || 1), pageCount);
  const rows = await db
    .select({
      id: userProfiles.userId,
      displayName: userProfiles.displayName,
      accountName: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      isAdmin: userProfiles.isAdmin,
      createdAt: userProfiles.createdAt,
    })
    .from(userProfiles)
    .innerJoin(user, eq(user.id, userProfiles.userId))
    .where(where)
    .orderBy(desc(userProfiles.createdAt), asc(userProfiles.userId))
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE);
  return {
    users: rows.map((r) => ({
      id: r.id,
      name: r.displayName || r.accountName || "—",
      email: r.email,
      emailVerified: r.emailVerified,
      isAdmin: r.isAdmin,
      createdAt: r.createdAt.toISOString(),
      adminByConfiguration: qualifiesAsAdmin(
        { email: r.email, emailVerified: r.emailVerified },
        options.adminRule,
      ),
    })),
    page,
    pageCount,
    total,
    admins,
  };
}

export class UserNotFoundError extends Error {
  constructor() {
    super("That user no longer exists.");
  }
}

/** Revoking would leave the shop without an admin (answered with 409). */
export class LastAdminError extends Error {
  constructor(self: boolean) {
    super(
      self
        ? "You are the only admin: grant admin to someone else before removing your own."
        : "This is the last admin: grant admin to someone else first, so the shop always has one.",
    );
  }
}

export type AdminChange = {
  userId: string;
  email: string;
  isAdmin: boolean;
  /** False when the user already had the requested role (nothing written, nothing recorded). */
  changed: boolean;
};

/**
 * Grants or revokes admin. Every admin row is locked first (in user id order, so two changes never
 * deadlock) and counted: two admins revoking each other at once, or one admin revoking the last
 * two, leave exactly one admin — the second transaction waits for the first and then counts what
 * it left. The change and its audit entry commit together.
 */
export async function setAdmin(
  db: Database,
  actor: Pick<Viewer, "id" | "email">,
  targetUserId: string,
  makeAdmin: boolean,
): Promise<AdminChange> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ userId: userProfiles.userId })
      .from(userProfiles)
      .where(eq(userProfiles.isAdmin, true))
      .orderBy(asc(userProfiles.userId))
      .for("update");
    const [target] = await tx
      .select({ userId: userProfiles.userId, email: user.email, isAdmin: userProfiles.isAdmin })
      .from(userProfiles)
      .innerJoin(user, eq(user.id, userProfiles.userId))
      .where(eq(userProfiles.userId, targetUserId))
      .for("update", { of: userProfiles });
    if (!target) throw new UserNotFoundError();
    const result = { userId: target.userId, email: target.email, isAdmin: makeAdmin };
    if (target.isAdmin === makeAdmin) return { ...result, changed: false };

    if (!makeAdmin) {
      const remaining = admins.filter((a) => a.userId !== target.userId).length;
      if (remaining < 1) throw new LastAdminError(target.userId === actor.id);
    }
    await tx
      .update(userProfiles)
      .set({ isAdmin: makeAdmin, updatedAt: new Date() })
      .where(eq(userProfiles.userId, target.userId));
    await recordAudit(tx, actor, {
      action: makeAdmin ? "user.grant-admin" : "user.revoke-admin",
      targetType: "user",
      targetId: target.userId,
      summary: makeAdmin
        ? `Granted admin to ${target.email}`
        : `Revoked admin from ${target.email}`,
      details: {
        email: target.email,
        before: { isAdmin: !makeAdmin },
        after: { isAdmin: makeAdmin },
        self: target.userId === actor.id,
      },
    });
    return { ...result, changed: true };
  });
}
