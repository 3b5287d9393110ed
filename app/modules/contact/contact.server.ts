import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/index.server.ts";
import { contactMessages } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import type { ContactInput } from "~/rules/storefront-schemas.ts";

/**
 * Stores a contact message and e-mails it to the shop. The message is kept even when the e-mail
 * can't be sent; staff see it in the database.
 */
export async function submitContactMessage(
  deps: { db: Database; mailer: Mailer; shopEmail: string },
  input: ContactInput,
  userId: string | null,
): Promise<void> {
  const name = `${input.firstName} ${input.lastName}`;
  await deps.db.insert(contactMessages).values({
    name,
    email: input.email,
    subject: input.subject,
    message: input.message,
    userId,
  });
  try {
    await deps.mailer.send({
      to: deps.shopEmail,
      replyTo: input.email,
      subject: `Contact form: ${input.subject}`,
      text: `From: ${name} <${input.email}>${userId ? ` (customer ${userId})` : ""}\n\n${input.message}\n`,
    });
  } catch (error) {
    log.warning("contact message stored but not e-mailed", { error });
  }
}
