import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The configuration contract (DESIGN.md): every variable is parsed once, at start-up. A bad value
 * stops the process with a message that names the variable.
 */
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a port number" })
      .int("must be a whole number")
      .min(1, "must be between 1 and 65535")
      .max(65535, "must be between 1 and 65535")
      .default(3000),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "must be an absolute URL" }).optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  AUTH_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default("LayerKart <shop@localhost>")),
  PAYMENT_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(["sandbox", "phonepe", "razorpay"]).default("sandbox"),
  ),
  ALLOW_SANDBOX_PAYMENTS: z.preprocess(
    emptyToUndefined,
    z.enum(["true", "false"]).default("false"),
  ),
  PHONEPE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  PHONEPE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  PHONEPE_CLIENT_VERSION: z.preprocess(emptyToUndefined, z.string().default("1")),
  PHONEPE_ENV: z.preprocess(emptyToUndefined, z.enum(["sandbox", "production"]).default("sandbox")),
  /** Overrides the API hosts (tests point them at a local server). */
  PHONEPE_API_URL: z.preprocess(emptyToUndefined, z.url({ error: "must be a URL" }).optional()),
  PHONEPE_AUTH_URL: z.preprocess(emptyToUndefined, z.url({ error: "must be a URL" }).optional()),
  PHONEPE_WEBHOOK_USERNAME: z.preprocess(emptyToUndefined, z.string().optional()),
  PHONEPE_WEBHOOK_PASSWORD: z.preprocess(emptyToUndefined, z.string().optional()),
  RAZORPAY_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  RAZORPAY_KEY_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  RAZORPAY_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  RAZORPAY_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "must be a URL" }).default("https://api.razorpay.com"),
  ),
  /** The courier (issue 24): manual (staff book by hand) unless Shiprocket is configured. */
  SHIPPING_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(["manual", "shiprocket"]).default("manual"),
  ),
  SHIPROCKET_EMAIL: z.preprocess(emptyToUndefined, z.string().optional()),
  SHIPROCKET_PASSWORD: z.preprocess(emptyToUndefined, z.string().optional()),
  SHIPROCKET_WEBHOOK_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  SHIPROCKET_PICKUP_LOCATION: z.preprocess(emptyToUndefined, z.string().default("Primary")),
  /** Overrides the API host (tests point it at a local server). */
  SHIPROCKET_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "must be a URL" }).default("https://apiv2.shiprocket.in/v1/external"),
  ),
  /**
   * The slicer for slicer-true estimates (docs/decisions/0020): PrusaSlicer's command line by this
   * path or name on PATH; `none` turns it off. A slicer that isn't installed is the same as none.
   */
  SLICER_PATH: z.preprocess(emptyToUndefined, z.string().default("prusa-slicer")),
  SLICER_TIME_LIMIT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(3600).default(120),
  ),
  SLICER_MEMORY_MB: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(256).max(65536).default(2048),
  ),
  STORAGE: z.preprocess(emptyToUndefined, z.enum(["local", "s3"]).default("local")),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default("us-east-1")),
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url({ error: "must be a URL" }).optional()),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false")),
  S3_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/,
        "must be a key prefix such as uploads/",
      )
      .default("uploads/"),
  ),
  S3_PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z.url({ error: "must be an absolute URL" }).optional(),
  ),
  S3_PRIVATE_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  ADMIN_EMAILS: z.preprocess(emptyToUndefined, z.string().default("")),
  ADMIN_EMAIL_DOMAIN: z.preprocess(emptyToUndefined, z.string().default("")),
  /** Unset: `auto` outside production, `never` in production. */
  SEED_DEMO: z.preprocess(emptyToUndefined, z.enum(["auto", "never"]).optional()),
  ALLOW_DEMO_SEED: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("false")),
  DEMO_ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().default("admin@example.com")),
  DEMO_ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(8, "must be at least 8 characters").optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["verbose", "info", "warning", "error"]).default("info"),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(true|false|[1-9])$/, "must be false, true, or the number of proxies in front (1-9)")
      .default("false"),
  ),
  SERVER_TIMING: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).optional()),
  PAGE_CACHE_MB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a number of megabytes" })
      .int("must be a whole number")
      .min(0, "must be 0 (off) or more")
      .max(4096, "must be at most 4096")
      .default(64),
  ),
  FORM_BODY_KB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a number of kilobytes" })
      .int("must be a whole number")
      .min(16, "must be at least 16")
      .max(10240, "must be at most 10240")
      .default(256),
  ),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
});

export type Env = Readonly<{
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: string;
  /**
   * PUBLIC_URL was set: the shop has one address, and sign-in there only. Unset, the shop works on
   * whatever address it is reached at (localhost, 127.0.0.1, the machine's LAN address).
   */
  publicUrlFixed: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  authSecret: string;
  /** AUTH_SECRET was unset: the secret was generated once into `$DATA_DIR/auth-secret`. */
  authSecretGenerated: boolean;
  /** ALLOW_DEMO_SEED=true: a demonstration shop (`npm run shop`), even in production mode. */
  demonstration: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  paymentProvider: "sandbox" | "phonepe" | "razorpay";
  allowSandboxPayments: boolean;
  phonepe: PhonePeConfig | null;
  razorpay: RazorpayConfig | null;
  shippingProvider: "manual" | "shiprocket";
  shiprocket: ShiprocketEnv | null;
  /** PrusaSlicer's command (or "none"), and each slicing's time and memory limits. */
  slicer: { path: string; timeLimitMs: number; memoryBytes: number };
  storage: "local" | "s3";
  /** Set when STORAGE=s3. */
  s3: S3Config | null;
  adminEmails: string[];
  adminEmailDomain: string;
  seedDemo: "auto" | "never";
  demoAdminEmail: string;
  demoAdminPassword: string | undefined;
  logLevel: "verbose" | "info" | "warning" | "error";
  /** false, true (every hop), or how many proxies in front to trust (Express "trust proxy"). */
  trustProxy: boolean | number;
  /** Send Server-Timing (database query counts); default on outside production. */
  serverTiming: boolean;
  /** Memory for rendered public pages (app/lib/page-cache.server.ts); 0 turns the cache off. */
  pageCacheBytes: number;
  /** The largest form or JSON body read (app/lib/body-limits.server.ts); uploads have their own. */
  formBodyBytes: number;
  /** Bearer token for GET /metrics (Prometheus); unset: /metrics answers 404. */
  metricsToken: string | undefined;
}>;

export type PhonePeConfig = Readonly<{
  clientId: string;
  clientSecret: string;
  clientVersion: string;
  apiUrl: string;
  authUrl: string;
  webhookUsername: string;
  webhookPassword: string;
}>;

export type S3Config = Readonly<{
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Key prefix of the public files, ending in "/". */
  prefix: string;
  /** Public base URL of the public files; unset: the shop serves them at /uploads/. */
  publicUrl: string | undefined;
  /** Customers' model files: this bucket, or the main bucket under "private/". */
  privateBucket: string | undefined;
}>;

export type ShiprocketEnv = Readonly<{
  email: string;
  password: string;
  webhookToken: string;
  pickupLocation: string;
  apiUrl: string;
}>;

export type RazorpayConfig = Readonly<{
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  apiUrl: string;
}>;

const PHONEPE_HOSTS = {
  sandbox: {
    api: "https://api-preprod.phonepe.com/apis/pg-sandbox",
    auth: "https://api-preprod.phonepe.com/apis/pg-sandbox",
  },
  production: {
    api: "https://api.phonepe.com/apis/pg",
    auth: "https://api.phonepe.com/apis/identity-manager",
  },
} as const;

/** The variables a provider needs, named when missing. */
function requireAll(
  provider: string,
  vars: Record<string, string | undefined>,
  chooser = "PAYMENT_PROVIDER",
): string[] {
  return Object.entries(vars)
    .filter(([, v]) => !v)
    .map(([name]) => `  ${name}: is required when ${chooser}=${provider}`);
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment; throws a ConfigError whose message names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      return `  ${name}: ${issue.message} (got ${JSON.stringify(source[name] ?? "")})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const dataDir = path.resolve(e.DATA_DIR);
  // A demonstration shop (`npm run shop`) runs in production mode without the operator choosing a
  // secret: like development, it generates one once into the data folder.
  const demonstration = e.ALLOW_DEMO_SEED === "true";
  if (e.NODE_ENV === "production" && !e.AUTH_SECRET && !demonstration) {
    throw new ConfigError(
      "Invalid configuration:\n  AUTH_SECRET: is required when NODE_ENV=production (at least 32 characters; a demonstration shop with ALLOW_DEMO_SEED=true generates one into $DATA_DIR/auth-secret)",
    );
  }
  if (e.NODE_ENV === "production" && e.SEED_DEMO === "auto" && e.ALLOW_DEMO_SEED !== "true") {
    throw new ConfigError(
      "Invalid configuration:\n  SEED_DEMO: the demo catalogue and its demo admin account are refused when NODE_ENV=production; set SEED_DEMO=never (or ALLOW_DEMO_SEED=true for a demonstration shop)",
    );
  }
  const phonepeVars = {
    PHONEPE_CLIENT_ID: e.PHONEPE_CLIENT_ID,
    PHONEPE_CLIENT_SECRET: e.PHONEPE_CLIENT_SECRET,
    PHONEPE_WEBHOOK_USERNAME: e.PHONEPE_WEBHOOK_USERNAME,
    PHONEPE_WEBHOOK_PASSWORD: e.PHONEPE_WEBHOOK_PASSWORD,
  };
  const razorpayVars = {
    RAZORPAY_KEY_ID: e.RAZORPAY_KEY_ID,
    RAZORPAY_KEY_SECRET: e.RAZORPAY_KEY_SECRET,
    RAZORPAY_WEBHOOK_SECRET: e.RAZORPAY_WEBHOOK_SECRET,
  };
  const missing =
    e.PAYMENT_PROVIDER === "phonepe"
      ? requireAll("phonepe", phonepeVars)
      : e.PAYMENT_PROVIDER === "razorpay"
        ? requireAll("razorpay", razorpayVars)
        : [];
  const shiprocketVars = {
    SHIPROCKET_EMAIL: e.SHIPROCKET_EMAIL,
    SHIPROCKET_PASSWORD: e.SHIPROCKET_PASSWORD,
    SHIPROCKET_WEBHOOK_TOKEN: e.SHIPROCKET_WEBHOOK_TOKEN,
  };
  if (e.SHIPPING_PROVIDER === "shiprocket") {
    missing.push(...requireAll("shiprocket", shiprocketVars, "SHIPPING_PROVIDER"));
  }
  if (e.STORAGE === "s3" && !e.S3_BUCKET) {
    missing.push("  S3_BUCKET: is required when STORAGE=s3");
  }
  const s3Prefix = e.S3_PREFIX.endsWith("/") ? e.S3_PREFIX : `${e.S3_PREFIX}/`;
  if (e.STORAGE === "s3" && !e.S3_PRIVATE_BUCKET && s3Prefix.startsWith("private/")) {
    // Model files live under private/ in the same bucket: the public prefix must not reach them.
    missing.push(
      "  S3_PREFIX: must not start with private/ (customers' model files are kept there)",
    );
  }
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join("\n")}`);
  const phonepeHosts = PHONEPE_HOSTS[e.PHONEPE_ENV];
  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    publicUrlFixed: e.PUBLIC_URL !== undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    authSecret: e.AUTH_SECRET ?? generatedSecret(dataDir),
    authSecretGenerated: !e.AUTH_SECRET,
    demonstration,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    paymentProvider: e.PAYMENT_PROVIDER,
    allowSandboxPayments: e.ALLOW_SANDBOX_PAYMENTS === "true",
    phonepe:
      requireAll("phonepe", phonepeVars).length === 0
        ? Object.freeze({
            clientId: e.PHONEPE_CLIENT_ID!,
            clientSecret: e.PHONEPE_CLIENT_SECRET!,
            clientVersion: e.PHONEPE_CLIENT_VERSION,
            apiUrl: (e.PHONEPE_API_URL ?? phonepeHosts.api).replace(/\/+$/, ""),
            authUrl: (e.PHONEPE_AUTH_URL ?? phonepeHosts.auth).replace(/\/+$/, ""),
            webhookUsername: e.PHONEPE_WEBHOOK_USERNAME!,
            webhookPassword: e.PHONEPE_WEBHOOK_PASSWORD!,
          })
        : null,
    razorpay:
      requireAll("razorpay", razorpayVars).length === 0
        ? Object.freeze({
            keyId: e.RAZORPAY_KEY_ID!,
            keySecret: e.RAZORPAY_KEY_SECRET!,
            webhookSecret: e.RAZORPAY_WEBHOOK_SECRET!,
            apiUrl: e.RAZORPAY_API_URL.replace(/\/+$/, ""),
          })
        : null,
    shippingProvider: e.SHIPPING_PROVIDER,
    shiprocket:
      requireAll("shiprocket", shiprocketVars).length === 0
        ? Object.freeze({
            email: e.SHIPROCKET_EMAIL!,
            password: e.SHIPROCKET_PASSWORD!,
            webhookToken: e.SHIPROCKET_WEBHOOK_TOKEN!,
            pickupLocation: e.SHIPROCKET_PICKUP_LOCATION,
            apiUrl: e.SHIPROCKET_API_URL.replace(/\/+$/, ""),
          })
        : null,
    slicer: Object.freeze({
      path: e.SLICER_PATH,
      timeLimitMs: e.SLICER_TIME_LIMIT_SECONDS * 1000,
      memoryBytes: e.SLICER_MEMORY_MB * 1024 * 1024,
    }),
    storage: e.STORAGE,
    s3:
      e.STORAGE === "s3" && e.S3_BUCKET
        ? Object.freeze({
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
            prefix: s3Prefix,
            publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ""),
            privateBucket: e.S3_PRIVATE_BUCKET,
          })
        : null,
    adminEmails: e.ADMIN_EMAILS.split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    adminEmailDomain: e.ADMIN_EMAIL_DOMAIN.trim().toLowerCase(),
    seedDemo: e.SEED_DEMO ?? (e.NODE_ENV === "production" ? "never" : "auto"),
    demoAdminEmail: e.DEMO_ADMIN_EMAIL.toLowerCase(),
    demoAdminPassword: e.DEMO_ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    trustProxy:
      e.TRUST_PROXY === "true" ? true : e.TRUST_PROXY === "false" ? false : Number(e.TRUST_PROXY),
    serverTiming: e.SERVER_TIMING ? e.SERVER_TIMING === "true" : e.NODE_ENV !== "production",
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    formBodyBytes: e.FORM_BODY_KB * 1024,
    metricsToken: e.METRICS_TOKEN,
  });
}

/**
 * Outside production, and in a demonstration shop, a signing secret is generated once and kept in
 * the data folder (readable by the shop's user only).
 */
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

let cached: Env | undefined;

/** The process's configuration, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
