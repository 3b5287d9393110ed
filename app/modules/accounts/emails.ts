import { layout, type RenderedEmail } from "~/lib/email-layout.ts";

export type { RenderedEmail };

/** Branded account e-mails: an HTML part and a plain-text part with the same absolute link. */

export function verificationEmail(name: string, url: string): RenderedEmail {
  const greeting = name ? `Hi ${name},` : "Hi,";
  return {
    subject: "Verify your email for LayerKart",
    text: `${greeting}\n\nPlease confirm your email address to finish setting up your LayerKart account:\n\n${url}\n\nIf you did not create an account, you can ignore this email.\n\nLayerKart`,
    html: layout(
      "Verify your email",
      `${greeting} please confirm your email address to finish setting up your LayerKart account.`,
      { label: "Verify email", url },
      "If you did not create an account, you can ignore this email.",
    ),
  };
}

export function passwordResetEmail(name: string, url: string): RenderedEmail {
  const greeting = name ? `Hi ${name},` : "Hi,";
  return {
    subject: "Reset your LayerKart password",
    text: `${greeting}\n\nWe received a request to reset your LayerKart password. Choose a new one here:\n\n${url}\n\nIf you did not ask for this, you can ignore this email; your password stays the same.\n\nLayerKart`,
    html: layout(
      "Reset your password",
      `${greeting} we received a request to reset your LayerKart password.`,
      { label: "Choose a new password", url },
      "If you did not ask for this, you can ignore this email; your password stays the same.",
    ),
  };
}
