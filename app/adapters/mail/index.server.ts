import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Mailer, MailMessage } from "./types.ts";

export type { Mailer, MailMessage } from "./types.ts";

/**
 * Without SMTP, every message is written as an RFC 822 `.eml` file in the outbox folder, so a
 * developer (and the e2e tests) can open exactly what would have been sent.
 */
export function createOutboxMailer(folder: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  return {
    kind: "outbox",
    async send(message: MailMessage) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(folder, { recursive: true });
      // Time first so a directory listing sorts oldest to newest.
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}.eml`;
      // Written under a temporary name, then renamed: a crash mid-write never leaves half an
      // e-mail under a .eml name.
      const temporary = path.join(folder, `.${name}.tmp`);
      await writeFile(temporary, info.message as Buffer);
      await rename(temporary, path.join(folder, name));
    },
    async close() {},
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: "smtp",
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

export function createMailer(options: {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
}): Mailer {
  return options.smtpUrl
    ? createSmtpMailer(options.smtpUrl, options.from)
    : createOutboxMailer(options.outboxDir, options.from);
}
