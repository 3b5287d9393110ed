/** The Content-Security-Policy for HTML documents: scripts only with this response's nonce. */
export function contentSecurityPolicy(nonce: string): string {
  return documentPolicy(`'self' 'nonce-${nonce}' 'strict-dynamic'`);
}

/**
 * The policy for a document served from the page cache (app/lib/page-cache.server.ts): it can't
 * carry a fresh nonce, so it allows the shop's own script files and exactly the inline scripts
 * whose hashes it lists.
 */
export function hashedContentSecurityPolicy(scriptHashes: string[]): string {
  return documentPolicy(["'self'", ...scriptHashes].join(" "));
}

function documentPolicy(scriptSources: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
    // Radix positions popovers with inline style attributes, which can't carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    // Product images may live elsewhere: the old shop's import and the CSV's "image URL" column
    // keep web addresses (http:// is upgraded to https:// by browsers on an https shop).
    "img-src 'self' data: blob: https: http:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
