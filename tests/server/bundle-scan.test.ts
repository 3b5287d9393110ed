import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * What the browser downloads: the built client assets must carry no secret, no server-only module
 * and no payment-gateway credentials or endpoints (payments.md: "No secret or payment payload in
 * browser bundles"). Needs `npm run build` first (npm test does it).
 */
const root = path.resolve(import.meta.dirname, "../..");
const clientDir = path.join(root, process.env.BUILD_DIR ?? "build", "client");

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(full)));
    else if (/\.(js|mjs|css|html|json|map)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Text that only server code contains; finding any of it in a browser file is a leak. */
const forbidden: Array<[RegExp, string]> = [
  [/AUTH_SECRET|DATABASE_URL|SMTP_URL/, "server configuration variable names"],
  [
    /PHONEPE_CLIENT_SECRET|RAZORPAY_KEY_SECRET|RAZORPAY_WEBHOOK_SECRET|PHONEPE_WEBHOOK_PASSWORD/,
    "gateway secrets",
  ],
  [/\/v1\/oauth\/token|checkout\/v2\/pay|\/v1\/payment_links/, "gateway API calls"],
  [/sandbox-webhook:/, "the sandbox signing key prefix"],
  [
    /@electric-sql\/pglite|drizzle-orm\/pg-core|from"pg"|nodemailer|better-auth\/adapters/,
    "server-only libraries",
  ],
  // Row locks as a query says them ("select … for update"); three.js's "marked for update" is prose.
  [/pg_trgm|word_similarity|\bselect\b[^`'"]{0,200}\bfor update\b/i, "SQL"],
  [/createHmac|timingSafeEqual|node:crypto|node:fs/, "Node built-ins"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "private keys"],
];

describe("browser bundles", () => {
  it("carry no secrets, SQL, gateway calls or server-only modules", async () => {
    const list = await files(clientDir);
    expect(list.length, `no client build in ${clientDir}`).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const file of list) {
      const text = await readFile(file, "utf8");
      for (const [pattern, what] of forbidden) {
        const match = text.match(pattern);
        if (match) leaks.push(`${path.relative(clientDir, file)}: ${what} ("${match[0]}")`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
