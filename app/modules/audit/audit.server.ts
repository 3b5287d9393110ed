import { and, count, desc, eq, ilike, like, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit } from "~/db/schema.ts";

/*
 * The admin audit log: every change made in the admin area records who made it, what changed and
 * when. Record inside the change's own transaction (pass the tx) so a failed change leaves no
 * entry and a committed one always has one.
 */

type Executor = Pick<Database, "insert">;

/** Who made a change: a signed-in staff member, or the shop itself (SYSTEM_ACTOR). */
export type AuditActor = { id: string | null; email: string };

/**
 * Changes the shop makes on its own (an unpaid order replaced by the customer's newer checkout,
 * a payment window that closed) are recorded under this name in the order's history.
 */
export const SYSTEM_ACTOR: AuditActor = { id: null, email: "LayerKart (automatic)" };

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
  actor: AuditActor,
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

export type AuditFilter = {
  /** Entries whose action starts with this, e.g. "user." or "order.ship". */
  actionPrefix?: string;
  /** Entries by this admin: part of their e-mail (case-insensitive) or their exact user id. */
  actor?: string;
};

/** `like` with the pattern characters of a user's text taken literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function auditWhere(filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  const prefix = filter.actionPrefix?.trim();
  if (prefix) conditions.push(like(adminAudit.action, `${escapeLike(prefix)}%`));
  const actor = filter.actor?.trim();
  if (actor) {
    const byActor = or(
      ilike(adminAudit.actorEmail, `%${escapeLike(actor)}%`),
      eq(adminAudit.actorId, actor),
    );
    if (byActor) conditions.push(byActor);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Newest first. Page with `offset` (entries written by one transaction share a timestamp, so an
 * offset pages through them safely); `before` still narrows to entries older than a time.
 */
export async function listAudit(
  db: Database,
  options: { limit?: number; offset?: number; before?: Date } & AuditFilter = {},
): Promise<AuditEntry[]> {
  return db
    .select()
    .from(adminAudit)
    .where(
      and(
        options.before ? lt(adminAudit.createdAt, options.before) : undefined,
        auditWhere(options),
      ),
    )
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0);
}

/** How many entries the filter matches (for page counts). */
export async function countAudit(db: Database, filter: AuditFilter = {}): Promise<number> {
  const [row] = await db.select({ n: count() }).from(adminAudit).where(auditWhere(filter));
  return row?.n ?? 0;
}

/** The distinct action families in the log ("order", "product", "user"…), for the filter. */
export async function auditActionFamilies(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ family: sql<string>`split_part(${adminAudit.action}, '.', 1)` })
    .from(adminAudit)
    .orderBy(sql`1`);
  return rows.map((r) => r.family).filter(Boolean);
}
