/*
 * Who becomes an admin on sign-in (SPEC.md §6 reading 1, DESIGN.md ADMIN_EMAILS /
 * ADMIN_EMAIL_DOMAIN): a verified account whose e-mail is on the list, or whose e-mail's domain is
 * the configured company domain. The rule only ever grants: an admin made by hand (or the demo
 * seed) keeps the flag.
 */

export type AdminRuleConfig = {
  /** Lower-cased addresses. */
  adminEmails: readonly string[];
  /** A domain such as "layerkart.in" (a leading "@" is allowed); empty: no domain rule. */
  adminEmailDomain: string;
};

export function qualifiesAsAdmin(
  account: { email: string; emailVerified: boolean },
  config: AdminRuleConfig,
): boolean {
  if (!account.emailVerified) return false;
  const email = account.email.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return false;
  if (config.adminEmails.some((listed) => listed.trim().toLowerCase() === email)) return true;
  const domain = config.adminEmailDomain.trim().toLowerCase().replace(/^@/, "");
  if (!domain) return false;
  // The whole domain must match: "evil-layerkart.in" does not end with "@layerkart.in".
  return email.endsWith(`@${domain}`);
}
