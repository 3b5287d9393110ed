import { availableParallelism } from "node:os";
import path from "node:path";
import { holdPgliteLock, releasePgliteLock } from "~/adapters/db/backup.server.ts";
import { type DatabaseHandle, openDatabase, pgliteFolder } from "~/adapters/db/index.server.ts";
import { createMailer, type Mailer } from "~/adapters/mail/index.server.ts";
import { createPaymentProvider, type PaymentProvider } from "~/adapters/payments/index.server.ts";
import { createShippingCarrier, type ShippingCarrier } from "~/adapters/shipping/index.server.ts";
import { createSlicer, type Slicer } from "~/adapters/slicer/index.server.ts";
import { createStorages } from "~/adapters/storage/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import { type Env, env } from "~/config/env.server.ts";
import { log, setLogLevel } from "~/lib/log.server.ts";
import { PageCache, STOREFRONT_CHANNEL } from "~/lib/page-cache.server.ts";
import { hashedContentSecurityPolicy } from "~/lib/security-headers.ts";
import { type Auth, createAuth } from "~/modules/accounts/auth.server.ts";
import { storeMissingVariants } from "~/modules/catalog/images.server.ts";
import { searchIndexOf } from "~/modules/catalog/search-index.server.ts";
import {
  createJobRunner,
  type JobHandlers,
  type JobRunner,
  startLoop,
} from "~/modules/jobs/jobs.server.ts";
import { sendOrderEmail } from "~/modules/orders/orders.server.ts";
import { paymentDepsFor, startReconciler } from "~/modules/payments/payments.server.ts";
import { sliceQuotedPart } from "~/modules/quotes/slicing.server.ts";
import { seedDemoIfEmpty } from "~/modules/seed/seed.server.ts";
import { type CourierRates, createCourierRates } from "~/modules/shipping/courier-rates.server.ts";
import { ensurePinDirectory } from "~/modules/shipping/pin-directory.server.ts";
import { manualQuote, pollTracking } from "~/modules/shipping/shipments.server.ts";
import { CART_COUNT_COOKIE } from "~/rules/cart.ts";
import { THEME_COOKIE, THEMES } from "~/rules/theme.ts";

/**
 * The process's long-lived parts: configuration, database, mailer, file storage and auth. Built
 * once; the custom server starts it before listening and stops it on SIGTERM. In development the
 * first request starts it.
 */
export type Runtime = {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle["db"];
  mailer: Mailer;
  storage: FileStorage;
  /** Files nobody may load by URL (customers' model files): served only through guarded routes. */
  privateFiles: FileStorage;
  auth: Auth;
  payments: PaymentProvider;
  /** The courier (manual unless Shiprocket is configured; decision 0016). */
  shipping: ShippingCarrier;
  /** The courier account's rates by PIN and weight, briefly cached (decision 0019). */
  courierRates: CourierRates;
  /** Runs the queued jobs (e-mails); every instance polls it, and callers run it after a commit. */
  jobRunner: JobRunner;
  /** PrusaSlicer's command line when installed, else none (docs/decisions/0020). */
  slicer: Slicer;
  /** Rendered public pages for visitors who aren't signed in (app/lib/page-cache.server.ts). */
  pageCache: PageCache;
  /** Background loops (job polling, payment reconciliation); not started under NODE_ENV=test. */
  jobs: Array<{ stop: () => Promise<void> }>;
};

const key = Symbol.for("layerkart.runtime");
const g = globalThis as unknown as Record<symbol, Promise<Runtime> | undefined>;

async function build(): Promise<Runtime> {
  const config = env();
  setLogLevel(config.logLevel);
  // Only one process may open an embedded database folder: a backup, a restore or a second shop
  // on the same folder is refused while this one holds it.
  if (!config.databaseUrl) holdPgliteLock(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteFolder(config.dataDir),
    onPoolError: (error) => log.error("database pool error", { error }),
  });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, "outbox"),
    from: config.mailFrom,
  });
  const { storage, privateFiles } = createStorages(config);
  const auth = createAuth({
    db: database.db,
    mailer,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
    anyAddress: !config.publicUrlFixed,
  });
  // India's PIN codes: loaded on the first start (and after the data package is upgraded), before
  // anyone can save an address (docs/decisions/0013-pin-directory.md).
  const pins = await ensurePinDirectory(database.db);
  if (pins.loaded) {
    log.info("PIN directory loaded", {
      source: pins.source,
      pins: pins.pinCount,
      ms: Math.round(pins.ms),
    });
  }
  if (config.seedDemo === "auto") {
    await seedDemoIfEmpty({ db: database.db, storage, auth, env: config });
  }
  const payments = createPaymentProvider(config, database.db);
  const shipping = createShippingCarrier(config, { quote: manualQuote(database.db) });
  const slicer = createSlicer(config.slicer);
  const sliceDeps = { db: database.db, files: privateFiles, slicer };
  const handlers: JobHandlers = {
    "order-email": (job) =>
      sendOrderEmail({ db: database.db, mailer, publicUrl: config.publicUrl }, job),
    mail: (message) => mailer.send(message),
    "image-variants": async ({ storagePath }) => {
      await storeMissingVariants(storage, storagePath);
    },
    // Without a slicer a left-over job records that it can't run; the instant estimate stands.
    "slice-quote": (job) => sliceQuotedPart(sliceDeps, job),
  };
  // With a slicer, its jobs have a runner of their own: one per core at a time, never holding up
  // the e-mails behind a slow slice (decision 0020).
  const slicing = slicer.name !== "none";
  const jobRunner = createJobRunner(database.db, handlers, {
    except: slicing ? ["slice-quote"] : [],
  });
  const slicingRunner = slicing
    ? createJobRunner(database.db, handlers, {
        kinds: ["slice-quote"],
        parallel: availableParallelism(),
        claimMs: config.slicer.timeLimitMs + 120_000,
      })
    : null;
  const pageCache = createPageCache(config);
  const rt: Runtime = {
    env: config,
    database,
    db: database.db,
    mailer,
    storage,
    privateFiles,
    auth,
    payments,
    shipping,
    courierRates: createCourierRates(shipping),
    jobRunner,
    slicer,
    pageCache,
    jobs: [],
  };
  if (config.pageCacheBytes > 0) {
    // The database announces every committed change to what the public pages show.
    const stop = await database.listen(
      STOREFRONT_CHANNEL,
      () => pageCache.invalidate(),
      (listening) => {
        pageCache.setListening(listening);
        if (!listening) log.warning("page cache paused: not hearing catalogue changes");
      },
    );
    rt.jobs.push({ stop });
  }
  if (config.nodeEnv !== "test") {
    // The search's copy of the products is read now, not by the first customer to search (0.7 s
    // at 100,000 products; decision 0021, amended 2026-11-27 d).
    searchIndexOf(database.db).catch((error: unknown) => {
      log.warning("search copy not loaded; the first search loads it", { error });
    });
    rt.jobs.push(jobRunner.start(), startReconciler(paymentDepsFor(rt)));
    if (slicingRunner) rt.jobs.push(slicingRunner.start());
    if (shipping.name !== "manual") {
      // Tracking by polling, in case the courier's webhook stops (each update counts once).
      const deps = { db: database.db, carrier: shipping, jobs: jobRunner };
      rt.jobs.push(
        startLoop(10 * 60_000, "courier tracking poll failed", () => pollTracking(deps)),
      );
    }
  }
  if (config.nodeEnv === "production" && config.demonstration) {
    log.warning("demonstration shop", {
      demoSeed: config.seedDemo === "auto",
      sandboxPayments: payments.name === "sandbox",
      authSecret: config.authSecretGenerated ? "generated into the data folder" : "AUTH_SECRET",
    });
  }
  log.info("runtime ready", {
    mode: config.nodeEnv,
    database: database.kind,
    mail: mailer.kind,
    storage: storage.kind,
    payments: payments.name,
    shipping: shipping.name,
    slicer: slicer.name,
  });
  return rt;
}

function createPageCache(config: Env): PageCache {
  return new PageCache({
    maxBytes: config.pageCacheBytes,
    maxAgeMs: 5 * 60_000,
    cookies: [
      { name: THEME_COOKIE, value: new RegExp(`^(${THEMES.join("|")})$`) },
      { name: CART_COUNT_COOKIE, value: /^\d{1,4}$/ },
    ],
    // Listing pages and the product page's reviews.
    params: ["page", "reviews"],
    // A product page's chosen variant (issue 22): shareable, so cached, in one spelling only.
    paramRules: [
      {
        name: "variant",
        path: /^\/product\/[^/]+$/,
        value: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      },
    ],
    // Documents carry a Content-Security-Policy in production builds (app/entry.server.tsx).
    policyForScriptHashes: import.meta.env?.PROD ? hashedContentSecurityPolicy : undefined,
  });
}

/** The runtime, started on first use. */
export function runtime(): Promise<Runtime> {
  g[key] ??= build().catch((error) => {
    g[key] = undefined;
    throw error;
  });
  return g[key];
}

export async function stopRuntime(): Promise<void> {
  const pending = g[key];
  g[key] = undefined;
  if (!pending) return;
  const rt = await pending.catch(() => undefined);
  if (!rt) return;
  // First the slicer's processes (their groups): a slice in flight ends at once, and its job is
  // tried again later, instead of holding the shutdown up to the time limit.
  rt.slicer.stop();
  await Promise.all(rt.jobs.map((job) => job.stop()));
  await rt.mailer.close();
  await rt.database.close();
  if (!rt.env.databaseUrl) releasePgliteLock(rt.env.dataDir);
}
