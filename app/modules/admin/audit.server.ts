import { desc, lt } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";

/*
 * The admin audit log: every change made in the admin area records who made it, what changed and
 * when. Record inside the change's own transaction (pass the tx) so a failed change leaves no
 * entry and a committed one always has one.
 */

type Executor = Pick<Database, "insert">;

export type AuditEntryInput = {
  /** Dotted verb, e.g. "product.create", "order.ship", "category.delete", "user.grant-admin". */
  action: string;
  targetType: string;
  targetId?: string | null;
  /** One readable line, e.g. 'Created "Dragon Miniature" at ₹499.00'. */
  summary: string;
  details?: Record<string, unknown>;
};

export async function recordAudit(
  db: Executor,
  actor: Pick<Viewer, "id" | "email">,
  entry: AuditEntryInput,
): Promise<void> {
  await db.insert(adminAudit).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    summary: entry.summary,
    details: entry.details ?? {},
  });
}

export type AuditEntry = typeof adminAudit.$inferSelect;

/** Newest first; pass the last entry's createdAt as `before` for the next page. */
export async function listAudit(
  db: Database,
  options: { limit?: number; before?: Date } = {},
): Promise<AuditEntry[]> {
  return db
    .select()
    .from(adminAudit)
    .where(options.before ? lt(adminAudit.createdAt, options.before) : undefined)
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
    .limit(options.limit ?? 50);
}
