import type { Database } from "~/adapters/db/index.server.ts";
import { subscribers } from "~/db/schema.ts";

/** Subscribes an e-mail to the newsletter. Idempotent: true when it was new. */
export async function subscribe(db: Database, email: string): Promise<boolean> {
  const rows = await db
    .insert(subscribers)
    .values({ email: email.trim().toLowerCase() })
    // The only unique index is on lower(email): a conflict means already subscribed.
    .onConflictDoNothing()
    .returning({ id: subscribers.id });
  return rows.length > 0;
}
