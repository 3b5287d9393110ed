import type { Tx } from "~/adapters/db/index.server.ts";
import { enqueueJob, type JobPayloads } from "~/modules/jobs/jobs.server.ts";

/**
 * Queues one of an order's e-mails inside the transaction that made the change, so the e-mail
 * goes out even if this process dies right after the commit (the "order-email" job, handled by
 * sendOrderEmail in orders.server.ts, sends it). Each e-mail is queued at most once per order.
 */
export async function queueOrderEmail(
  tx: Tx,
  orderId: string,
  template: JobPayloads["order-email"]["template"],
): Promise<void> {
  await enqueueJob(
    tx,
    "order-email",
    { orderId, template },
    { dedupeKey: `order-email:${template}:${orderId}` },
  );
}
