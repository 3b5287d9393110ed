import type { Database } from "~/adapters/db/index.server.ts";
import { contactMessages } from "~/db/schema.ts";
import { enqueueJob, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import type { ContactInput } from "~/rules/storefront-schemas.ts";

/**
 * Stores a contact message and queues its e-mail to the shop in the same transaction, then sends
 * it; an e-mail that can't be sent now is retried by the job runner, and the message is kept.
 */
export async function submitContactMessage(
  deps: { db: Database; jobs?: RunJobsNow; shopEmail: string },
  input: ContactInput,
  userId: string | null,
): Promise<void> {
  const name = `${input.firstName} ${input.lastName}`;
  await deps.db.transaction(async (tx) => {
    await tx.insert(contactMessages).values({
      name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      userId,
    });
    await enqueueJob(tx, "mail", {
      to: deps.shopEmail,
      replyTo: input.email,
      subject: `Contact form: ${input.subject}`,
      text: `From: ${name} <${input.email}>${userId ? ` (customer ${userId})` : ""}\n\n${input.message}\n`,
    });
  });
  await runQueuedNow(deps.jobs);
}
