/** Branded account e-mails: an HTML part and a plain-text part with the same absolute link. */
export type RenderedEmail = { subject: string; text: string; html: string };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function layout(
  heading: string,
  intro: string,
  action: { label: string; url: string },
  outro: string,
) {
  return `<!doctype html><html><body style="margin:0;background:#f6f3ee;font-family:Segoe UI,Roboto,Arial,sans-serif;color:#1f2433">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:#b4441f">LayerKart</td></tr>
<tr><td style="padding-top:16px;font-size:20px;font-weight:600">${escapeHtml(heading)}</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:1.6">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(action.url)}" style="background:#b4441f;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.6;color:#5b6070">${escapeHtml(outro)}<br>If the button does not work, copy this link into your browser:<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></td></tr>
</table></td></tr></table></body></html>`;
}

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
