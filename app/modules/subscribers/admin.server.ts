import { count, desc } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { subscribers } from "~/db/schema.ts";

/* Newsletter subscribers for the admin area (SPEC.md §2 /admin/subscribers, §7). */

export const SUBSCRIBERS_PAGE_SIZE = 50;

export type SubscriberRow = { id: string; email: string; createdAt: string };

export type SubscribersPage = {
  subscribers: SubscriberRow[];
  total: number;
  page: number;
  pageCount: number;
};

/** Newest first, `SUBSCRIBERS_PAGE_SIZE` per page; a page past the end shows the last one. */
export async function listSubscribers(db: Database, page = 1): Promise<SubscribersPage> {
  const [{ n: total }] = await db.select({ n: count() }).from(subscribers);
  const pageCount = Math.max(1, Math.ceil(total / SUBSCRIBERS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db
    .select({ id: subscribers.id, email: subscribers.email, createdAt: subscribers.createdAt })
    .from(subscribers)
    .orderBy(desc(subscribers.createdAt), desc(subscribers.id))
    .limit(SUBSCRIBERS_PAGE_SIZE)
    .offset((current - 1) * SUBSCRIBERS_PAGE_SIZE);
  return {
    subscribers: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total,
    page: current,
    pageCount,
  };
}

/** Every subscriber, newest first (the CSV export). */
export async function allSubscribers(
  db: Database,
): Promise<Array<{ email: string; createdAt: Date }>> {
  return db
    .select({ email: subscribers.email, createdAt: subscribers.createdAt })
    .from(subscribers)
    .orderBy(desc(subscribers.createdAt), desc(subscribers.id));
}
