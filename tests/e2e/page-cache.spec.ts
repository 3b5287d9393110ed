import type { Page } from "@playwright/test";
import { expect, productId, signIn, test } from "./fixtures";

/*
 * Public pages for visitors who aren't signed in come from the server's page cache
 * (app/lib/page-cache.server.ts) after their first render: they must still run (their inline
 * scripts allowed by hash instead of a nonce), and a change staff make must show at once.
 */

const admin = { email: "admin@example.com", password: "demo-admin-password" };
const PRODUCT = "Hex Drawer Desk Organiser";

/** Collects the Content-Security-Policy violations of scripts the page reports. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => {
      // Scripts only; zod probes once whether eval is allowed (it never is, on any page), which
      // is not a script the page needed.
      if (!e.effectiveDirective.startsWith("script-src") || e.blockedURI === "eval") return;
      seen.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const console: string[] = [];
  page.on("console", (m) => {
    const text = m.text();
    const aboutScripts = /Content Security Policy/i.test(text) && /script/i.test(text);
    if (m.type() === "error" && aboutScripts && !/eval/i.test(text)) {
      console.push(text);
    }
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
  ];
}

/** Opens a page until it comes from the cache (a render is stored just after it is sent). */
async function openCached(page: Page, url: string) {
  await expect
    .poll(async () => (await page.goto(url))?.headers()["x-page-cache"], { timeout: 10_000 })
    .toBe("hit");
}

test("a cached listing and product page run in the browser like a fresh render", async ({
  page,
}) => {
  const violations = await watchPolicy(page);
  await openCached(page, "/products");
  const policy = (await page.request.get("/products")).headers()["content-security-policy"];
  expect(policy).toMatch(/script-src 'self' 'sha256-/);

  // Hydrated: a card's button works and the header badge counts it.
  const card = page.getByRole("article").filter({ hasText: PRODUCT });
  await card.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  // The badge's cookie makes a page of its own, rendered with the count, then cached too.
  const id = await productId(page, PRODUCT);
  await openCached(page, `/product/${id}`);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await page
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link", { name: "Home" })
    .click();
  await expect(page).toHaveURL(/\/$/);
  expect(await violations()).toEqual([]);
});

test("a change staff save shows at once to a visitor whose page was cached", async ({
  page,
  browser,
}) => {
  const id = await productId(page, PRODUCT);
  await openCached(page, `/product/${id}`);
  const heading = page.getByRole("heading", { name: PRODUCT, level: 1 });
  await expect(heading).toBeVisible();
  const newPrice = page.getByRole("main").getByText("₹777.00", { exact: true });
  await expect(newPrice).toHaveCount(0);

  const staff = await browser.newContext();
  const adminPage = await staff.newPage();
  try {
    await signIn(adminPage, admin);
    const editPrice = async (value: string) => {
      await adminPage.goto(`/admin/items/${id}`);
      await adminPage.getByLabel(/^Price/).fill(value);
      await adminPage.getByRole("button", { name: "Save changes" }).click();
      await expect(adminPage.getByTestId("toast")).toContainText("Changes saved");
    };
    const originalValue = await (async () => {
      await adminPage.goto(`/admin/items/${id}`);
      return adminPage.getByLabel(/^Price/).inputValue();
    })();
    await editPrice("777");
    try {
      const after = await page.goto(`/product/${id}`);
      expect(after?.headers()["x-page-cache"]).toBe("miss");
      await expect(newPrice.first()).toBeVisible();
    } finally {
      await editPrice(originalValue);
    }
    await page.goto(`/product/${id}`);
    await expect(heading).toBeVisible();
    await expect(newPrice).toHaveCount(0);
  } finally {
    await staff.close();
  }
});

test("a page's scripts start after its first paint, rendered fresh or from the cache, and it still runs", async ({
  page,
  context,
}) => {
  // Decision 0032: the scripts don't share the connection with the first paint.
  const violations = await watchPolicy(page);
  const startedAfterPaint = async () =>
    page.evaluate(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
      const scripts = performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/.*\.js$/.test(entry.name));
      if (paint === undefined || scripts.length === 0) return "not yet";
      const first = Math.min(...scripts.map((entry) => entry.startTime));
      return first > paint ? "after" : `before (${first} ms, paint ${paint} ms)`;
    });
  const addOne = async (count: string) => {
    const card = page.getByRole("article").filter({ hasText: PRODUCT });
    await card.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText(count);
  };

  await openCached(page, "/products");
  await expect.poll(startedAfterPaint).toBe("after");
  await addOne("1");

  // A cookie the page cache doesn't know: the page is rendered for it, with a nonce.
  await context.addCookies([{ name: "e2e", value: "render", url: page.url() }]);
  const fresh = await page.goto("/products");
  expect(fresh?.headers()["x-page-cache"]).not.toBe("hit");
  expect(fresh?.headers()["content-security-policy"]).toMatch(/'nonce-/);
  await expect.poll(startedAfterPaint).toBe("after");
  await addOne("2");
  expect(await violations()).toEqual([]);
});
