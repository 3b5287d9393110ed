/**
 * `npm run shop` (after installing and building): the production server in production mode, as a
 * demonstration shop. What the demonstration needs is allowed explicitly, and only where the
 * environment doesn't say otherwise: the demo catalogue seeded into an empty database with its
 * admin (SEED_DEMO=auto, ALLOW_DEMO_SEED=true), the sandbox payment gateway
 * (ALLOW_SANDBOX_PAYMENTS=true) and, without AUTH_SECRET, a signing secret generated once into
 * $DATA_DIR/auth-secret. A real shop runs `npm start` with NODE_ENV=production and its own settings
 * (docs/deploy.md).
 */
const demo: Record<string, string> = {
  NODE_ENV: "production",
  SEED_DEMO: "auto",
  ALLOW_DEMO_SEED: "true",
  ALLOW_SANDBOX_PAYMENTS: "true",
};
for (const [name, value] of Object.entries(demo)) {
  if (!process.env[name]) process.env[name] = value;
}
// Set before the server (and React, which picks its build by NODE_ENV) is loaded.
await import("../server/index.ts");

export {};
