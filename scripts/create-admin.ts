/**
 * npm run create-admin -- --email owner@example.com [--name "Shop Owner"] [--password …]
 *
 * Creates a verified admin account on the configured database (DATABASE_URL, or the embedded
 * database in $DATA_DIR), or makes an existing account an admin. Without --password a strong one
 * is generated and printed once. Stop the shop first when it runs on the embedded database (one
 * process per data folder).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import "./lib/use-app-alias.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    name: { type: "string", default: "Shop Admin" },
    password: { type: "string" },
  },
});
const email = values.email?.trim() ?? "";
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
  console.error(
    "Usage: npm run create-admin -- --email you@example.com [--name NAME] [--password PASSWORD]",
  );
  process.exit(2);
}
if (values.password !== undefined && values.password.length < 8) {
  console.error("The password must be at least 8 characters.");
  process.exit(2);
}

const { env } = await import("~/config/env.server.ts");
const { openDatabase, pgliteFolder } = await import("~/adapters/db/index.server.ts");
const { createMailer } = await import("~/adapters/mail/index.server.ts");
const { createAuth } = await import("~/modules/accounts/auth.server.ts");
const { ensureAdminAccount } = await import("~/modules/accounts/admin-account.server.ts");

const config = env();
const { lockEmbeddedOrExit } = await import("./lib/embedded-lock.ts");
const release = lockEmbeddedOrExit(config, "create-admin");
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: pgliteFolder(config.dataDir),
});
try {
  const mailer = createMailer({
    smtpUrl: undefined,
    outboxDir: `${config.dataDir}/outbox`,
    from: config.mailFrom,
  });
  const auth = createAuth({
    db: database.db,
    mailer,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
  });
  const password = values.password ?? randomBytes(12).toString("base64url");
  const result = await ensureAdminAccount(
    { db: database.db, auth },
    { email, name: values.name ?? "Shop Admin", password },
  );
  if (result === "created") {
    console.log(`Admin created: ${email.toLowerCase()}`);
    if (!values.password) console.log(`Password (shown once): ${password}`);
  } else if (result === "promoted") {
    console.log(`${email.toLowerCase()} is now an admin (its password is unchanged).`);
  } else {
    console.log(`${email.toLowerCase()} is already an admin.`);
  }
} finally {
  await database.close();
  release();
}
