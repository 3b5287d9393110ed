/** An e-mail's two parts: plain text and HTML, saying the same thing. */
export type RenderedEmail = { subject: string; text: string; html: string };

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/**
 * The shop's branded e-mail frame: heading, intro, an optional block of trusted HTML (already
 * escaped by the caller), one action button and a closing line that repeats the link.
 */
export function layout(
  heading: string,
  intro: string,
  action: { label: string; url: string },
  outro: string,
  blockHtml = "",
) {
  return `<!doctype html><html><body style="margin:0;background:#f6f3ee;font-family:Segoe UI,Roboto,Arial,sans-serif;color:#1f2433">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:#b4441f">LayerKart</td></tr>
<tr><td style="padding-top:16px;font-size:20px;font-weight:600">${escapeHtml(heading)}</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:1.6">${escapeHtml(intro)}</td></tr>
${blockHtml ? `<tr><td style="padding-top:16px">${blockHtml}</td></tr>` : ""}
<tr><td style="padding:24px 0"><a href="${escapeHtml(action.url)}" style="background:#b4441f;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.6;color:#5b6070">${escapeHtml(outro)}<br>If the button does not work, copy this link into your browser:<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></td></tr>
</table></td></tr></table></body></html>`;
}
