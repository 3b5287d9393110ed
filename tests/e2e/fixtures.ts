import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";

export const e2eDataDir = path.resolve(
  import.meta.dirname,
  "../..",
  process.env.E2E_DATA_DIR ?? ".tmp/e2e",
);
export const outboxDir = path.join(e2eDataDir, "outbox");

export type Email = { file: string; to: string; subject: string; text: string; html: string };

async function readOutbox(): Promise<Email[]> {
  let files: string[] = [];
  try {
    files = (await readdir(outboxDir)).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(await readFile(path.join(outboxDir, file)));
      const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
      return {
        file,
        to: (to ?? "").toLowerCase(),
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
        html: typeof parsed.html === "string" ? parsed.html : "",
      };
    }),
  );
}

/** Waits for the newest e-mail to `to` (optionally matching a subject) and returns it. */
export async function readEmail(to: string, options: { subject?: RegExp; after?: number } = {}) {
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox()).filter(
          (m) =>
            m.to.includes(to.toLowerCase()) &&
            (!options.subject || options.subject.test(m.subject)),
        );
        found = mails.slice(options.after ?? 0).at(-1);
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

export async function countEmails(to: string): Promise<number> {
  return (await readOutbox()).filter((m) => m.to.includes(to.toLowerCase())).length;
}

export function firstLink(email: Email): string {
  const match = email.text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`No link in e-mail "${email.subject}"`);
  return match[0];
}

const checkedPaths = new Set<string>();
let counter = 0;
export type TestUser = { name: string; email: string; password: string };

/** Registers a verified account through the shop's own endpoints and e-mail link. */
async function registerVerifiedUser(page: Page): Promise<TestUser> {
  counter += 1;
  const user: TestUser = {
    name: `Test Customer ${counter}`,
    email: `customer-${Date.now()}-${counter}@example.com`,
    password: "correct-horse-battery",
  };
  const res = await page.request.post("/api/auth/sign-up/email", {
    data: { name: user.name, email: user.email, password: user.password },
    headers: { origin: shopOrigin },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const mail = await readEmail(user.email, { subject: /verify/i });
  const verify = await page.request.get(firstLink(mail), { maxRedirects: 0 });
  expect(verify.status()).toBeLessThan(400);
  return user;
}

export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">) {
  const res = await page.request.post("/api/auth/sign-in/email", {
    data: { email: user.email, password: user.password },
    headers: { origin: shopOrigin },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Fails the test on any accessibility violation axe-core finds on the current page. */
/** On /addresses: adds Asha Rao's address through the dialog (Bengaluru 560001 unless given). */
export async function addAddress(
  page: Page,
  place: { line1: string; city: string; state: string; pin: string } = {
    line1: "12 MG Road",
    city: "Bengaluru",
    state: "Karnataka",
    pin: "560001",
  },
) {
  await page.getByRole("button", { name: "Add Address" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Address" });
  await dialog.getByLabel("Full name").fill("Asha Rao");
  await dialog.getByLabel("Street address").fill(place.line1);
  // The PIN first: the form fills the city and state from it, then they are set as given.
  await dialog.getByLabel("PIN code").fill(place.pin);
  await dialog.getByLabel("City").fill(place.city);
  await dialog.getByLabel("State").fill(place.state);
  await dialog.getByLabel("Phone").fill("9876543210");
  await dialog.getByRole("button", { name: "Save Address" }).click();
  await expect(dialog).toBeHidden();
}

export async function expectAccessible(page: Page) {
  // Colours are judged at rest. The shop's animations are motion-safe only, so with reduced
  // motion a toast that appears while axe runs (the payment page's polling) is drawn at its
  // final colours at once; let any other finite animation finish first.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The widest viewport the journeys treat as a phone (they use 360 and 390 px). */
const PHONE_MAX_WIDTH = 480;
const isPhone = (size: { width: number } | null) => (size?.width ?? 1280) <= PHONE_MAX_WIDTH;

/**
 * Nothing on the page is wider than the viewport: on a phone it never scrolls sideways, whatever
 * customers and staff wrote (a 1,000-character review without spaces once made a product page
 * 7,090 px wide on a 390 px phone, and Add to Cart could not be tapped).
 */
export async function expectFitsViewport(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      { message: `${page.url()} is wider than its ${page.viewportSize()?.width} px viewport` },
    )
    .toBeLessThanOrEqual(0);
}

/** Paths already checked at a phone width this run (path and width). */
const widthChecked = new Set<string>();

type Fixtures = {
  /** A verified customer account, created for this test. */
  newUser: TestUser;
  /** Signs the page in as a new verified customer. */
  login: () => Promise<TestUser>;
};

/** The shop's own origin: state-changing auth requests must come from it (Better Auth checks). */
const shopOrigin = `http://localhost:${process.env.E2E_PORT ?? 3100}`;

let ipCounter = 0;

export const test = base.extend<Fixtures>({
  // Each test comes from its own client address (the e2e server trusts X-Forwarded-For as if behind
  // a proxy), so per-address rate limits hold for every test without tests tripping each other.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  extraHTTPHeaders: async ({}, use, testInfo) => {
    ipCounter += 1;
    const n = testInfo.workerIndex * 10_000 + ipCounter;
    await use({ "X-Forwarded-For": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
  },
  newUser: async ({ page }, use) => {
    await use(await registerVerifiedUser(page));
  },
  login: async ({ page }, use) => {
    await use(async () => {
      const user = await registerVerifiedUser(page);
      await signIn(page, user);
      return user;
    });
  },
  // Every page a test visits is checked with axe-core: the page it ends on as it stands, and each
  // other path it passed through, reopened in the same browser context (once per run).
  page: async ({ page }, use) => {
    const errors: string[] = [];
    const visited = new Set<string>();
    // Pages opened at a phone width, and that width: each must fit it (with whatever long text
    // the journey put in place by then).
    const onPhone = new Map<string, { width: number; height: number }>();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame() || !frame.url().startsWith("http")) return;
      visited.add(frame.url());
      const size = page.viewportSize();
      if (size && isPhone(size)) onPhone.set(frame.url(), size);
    });
    await use(page);
    expect(errors, "uncaught errors in the page").toEqual([]);
    if (page.url().startsWith("http") && isPhone(page.viewportSize())) {
      await expectFitsViewport(page);
      widthChecked.add(`${new URL(page.url()).pathname}@${page.viewportSize()?.width}`);
    }
    for (const [url, size] of onPhone) {
      const key = `${new URL(url).pathname}@${size.width}`;
      if (widthChecked.has(key)) continue;
      widthChecked.add(key);
      const other = await page.context().newPage();
      await other.setViewportSize(size);
      await other.goto(url);
      await expectFitsViewport(other);
      await other.close();
    }
    if (page.url().startsWith("http")) {
      await expectAccessible(page);
      checkedPaths.add(new URL(page.url()).pathname);
    }
    for (const url of visited) {
      const { pathname } = new URL(url);
      if (checkedPaths.has(pathname)) continue;
      checkedPaths.add(pathname);
      const other = await page.context().newPage();
      await other.goto(url);
      await expectAccessible(other);
      await other.close();
    }
  },
});

/** A seeded product's id, found by its exact name through the shop's own search. */
export async function productId(page: Page, name: string): Promise<string> {
  const res = await page.request.get(`/api/search?q=${encodeURIComponent(name)}`);
  const { suggestions } = (await res.json()) as {
    suggestions: Array<{ id: string; name: string }>;
  };
  const hit = suggestions.find((s) => s.name === name);
  if (!hit) throw new Error(`product "${name}" not found by search`);
  return hit.id;
}

/**
 * Holds the page's entry script back until `release()`: the page shows, but doesn't hydrate, so
 * every tap and keystroke lands before hydration (decisions 0031 and 0032).
 */
export async function holdHydration(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/entry\.client-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Waits until React has hydrated `locator`'s element (its props are on it). For what a person
 * does only well after a page shows, or where the journey checks what the page's scripts do
 * (focus moved, a drop handled) rather than the browser's own way without them.
 */
export async function whenHydrated(locator: Locator): Promise<void> {
  await expect
    .poll(() =>
      locator.evaluate((element) =>
        Object.keys(element).some((key) => key.startsWith("__reactProps")),
      ),
    )
    .toBe(true);
}

export { expect };
