import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { formatAdminDate } from "../../app/rules/admin-dates.ts";
import { addAddress, expect, productId, signIn, type TestUser, test } from "./fixtures.ts";

/*
 * The admin's people screens: the dashboard's sales chart and waiting work, the settings that the
 * cart charges, granting and revoking admin (seen in the audit log), the subscribers CSV, and the
 * admin's time zone.
 */

const admin = { email: "admin@example.com", password: "demo-admin-password" };

async function addToCart(page: Page, name: string) {
  await page.goto(`/product/${await productId(page, name)}`);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Added to cart");
}

/** A new customer buys a Lotus Tealight Holder and pays in the sandbox: a paid order today. */
async function placePaidOrder(page: Page, login: () => Promise<TestUser>) {
  await login();
  await addToCart(page, "Lotus Tealight Holder");
  await page.goto("/cart");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
  await addAddress(page);
  await page.getByRole("link", { name: "Continue to Checkout" }).click();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await expect(page.getByRole("button", { name: "Simulate success" })).toBeVisible();
  // Settle it as the sandbox's 'Simulate success' button does, without opening the result page
  // (the checkout journeys cover that page).
  const settled = await page.request.post(page.url(), {
    form: { outcome: "success" },
    maxRedirects: 0,
  });
  expect(settled.status(), await settled.text()).toBe(302);
}

/** Nothing on the page scrolls sideways on a 360 px wide phone. */
async function fitsSmallPhone(page: Page) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  await expect
    .poll(() =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    )
    .toBeLessThanOrEqual(0);
  if (size) await page.setViewportSize(size);
}

/** India's calendar day today, as the dashboard's table writes it ("Sun, 22 Nov 2026"). */
function todayInIndia(): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Asia/Kolkata",
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
  }).formatToParts(new Date());
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("weekday")}, ${get("day")} ${get("month")} ${get("year")}`;
}

test.describe("admin: dashboard, settings, users, subscribers, audit", () => {
  test("the dashboard shows today's paid order in the chart and the order waiting to ship", async ({
    page,
    login,
  }) => {
    await placePaidOrder(page, login);
    await signIn(page, admin);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();

    const chart = page.getByTestId("sales-chart");
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute("role", "img");
    await expect(chart).toHaveAttribute("aria-label", /Revenue per day .*highest/);
    await expect(chart.locator("rect")).toHaveCount(30);
    const todayBar = chart.locator("rect").last();
    expect(Number(await todayBar.getAttribute("height"))).toBeGreaterThan(0);
    await expect(page.getByTestId("sales-totals")).toContainText(/[1-9]\d* paid orders?/);
    await expect(page.getByTestId("count-to-ship")).not.toHaveText("0");
    // What is counted: processing orders, cash on delivery ones too (not only paid ones).
    await expect(page.getByText("Processing: paid online or cash on delivery")).toBeVisible();
    await expect(page.getByTestId("sales-totals")).toContainText("· days in India time (IST)");
    await expect(page.getByTestId("count-returns")).toHaveText(/^\d+$/);
    await expect(page.getByTestId("count-quotes")).toHaveText(/^\d+$/);
    await expect(page.getByText("Custom prints to review and answer")).toBeVisible();

    // The figures as a table, for screen readers always and on request for everyone.
    const table = page.getByTestId("sales-table");
    const tableBox = table.locator("xpath=..");
    expect((await tableBox.boundingBox())?.height ?? 0).toBeLessThanOrEqual(1); // visually hidden
    await page.getByRole("button", { name: "Show table" }).click();
    await expect(table).toBeVisible();
    const today = table.getByRole("row", { name: new RegExp(`^${todayInIndia()}`) });
    await expect(today.getByRole("cell").first()).not.toHaveText("0");
    await page.getByRole("button", { name: "Paid orders", exact: true }).click();
    await expect(chart).toHaveAttribute("aria-label", /Paid orders per day/);

    // The sections, with settings and the audit log.
    for (const name of ["Items", "Orders", "Users", "Settings", "Audit Log", "Subscribers"]) {
      await expect(page.getByRole("link", { name: new RegExp(`^${name}`) }).last()).toBeVisible();
    }

    // 'Load all products': every product, in a compact table.
    await page.getByRole("button", { name: "Load all products" }).click();
    const rows = page.getByTestId("all-products").getByRole("row");
    await expect(rows.first()).toBeVisible();
    await expect(page.getByText(/^Products 1–\d+ of \d+, newest first\.$/)).toBeVisible();
    await expect(page.getByTestId("all-products")).toContainText("Lotus Tealight Holder");
    await fitsSmallPhone(page);
  });

  test("a new shipping fee is what a new customer's cart charges", async ({
    page,
    browser,
    newUser,
  }, testInfo) => {
    await signIn(page, admin);
    await page.goto("/admin/settings");
    const fee = page.getByLabel("Shipping fee (₹)");
    await expect(fee).toHaveValue("9.99");

    // A malformed GSTIN is refused, with the field's message.
    const gstin = page.getByLabel("GSTIN (optional)");
    const savedGstin = await gstin.inputValue();
    await gstin.fill("29ABCDE1234F1X5");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByTestId("toast")).toContainText("Failed to save");
    await expect(page.getByText(/Enter a valid 15-character GSTIN/)).toBeVisible();
    await gstin.fill(savedGstin);

    await fee.fill("15.50");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByTestId("toast")).toContainText("Settings saved");
    try {
      const context = await browser.newContext({
        baseURL: testInfo.project.use.baseURL,
        extraHTTPHeaders: { "X-Forwarded-For": `10.250.${testInfo.workerIndex}.77` },
      });
      const shopper = await context.newPage();
      await signIn(shopper, newUser);
      await addToCart(shopper, "Lotus Tealight Holder");
      await shopper.goto("/cart");
      await expect(shopper.getByTestId("summary-shipping")).toHaveText("₹15.50");
      await context.close();
      await fitsSmallPhone(page);
    } finally {
      await page.goto("/admin/settings");
      await page.getByLabel("Shipping fee (₹)").fill("9.99");
      await page.getByRole("button", { name: "Save Settings" }).click();
      await expect(page.getByTestId("toast")).toContainText("Settings saved");
    }
    await page.goto("/admin/audit?action=settings.");
    await expect(page.getByTestId("audit-entry").first()).toContainText(
      "Shipping fee ₹15.50 → ₹9.99",
    );
  });

  test("grant and revoke admin, both in the audit log; dates follow the chosen time zone", async ({
    page,
    newUser,
  }) => {
    await signIn(page, admin);
    await page.goto(`/admin/users?q=${encodeURIComponent(newUser.email)}`);
    const row = page.getByTestId("user-row").filter({ hasText: newUser.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("User", { exact: true })).toBeVisible();

    await row.getByRole("button", { name: `Make admin for ${newUser.email}` }).click();
    const grant = page.getByRole("alertdialog", { name: `Make ${newUser.email} an admin?` });
    await grant.getByRole("button", { name: "Make admin" }).click();
    await expect(page.getByTestId("toast")).toContainText("Admin granted");
    await expect(row.getByText("Admin", { exact: true })).toBeVisible();

    await row.getByRole("button", { name: `Revoke admin for ${newUser.email}` }).click();
    const revoke = page.getByRole("alertdialog", { name: `Revoke admin from ${newUser.email}?` });
    await revoke.getByRole("button", { name: "Revoke admin" }).click();
    await expect(page.getByTestId("toast")).toContainText("Admin revoked");
    await expect(row.getByText("User", { exact: true })).toBeVisible();

    // When the demo admin is the only admin, revoking them is refused.
    await page.goto(`/admin/users?q=${encodeURIComponent(admin.email)}`);
    // Their own row says so, with a space ("Demo Admin(you)" once).
    await expect(
      page.getByTestId("user-row").filter({ hasText: admin.email }).getByRole("cell").first(),
    ).toHaveText(/\S \(you\)$/);
    if (await page.getByText(/· 1 admin$/).isVisible()) {
      const self = page.getByTestId("user-row").filter({ hasText: admin.email });
      await self.getByRole("button", { name: /^Revoke admin for/ }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke admin" }).click();
      await expect(page.getByTestId("toast")).toContainText("Failed to update");
      await expect(page.getByTestId("toast")).toContainText("only admin");
      await expect(self.getByText("Admin", { exact: true })).toBeVisible();
    }
    await fitsSmallPhone(page);

    await page.goto("/admin/audit?action=user.");
    const granted = page.getByTestId("audit-entry").filter({
      hasText: `Granted admin to ${newUser.email}`,
    });
    const revoked = page.getByTestId("audit-entry").filter({
      hasText: `Revoked admin from ${newUser.email}`,
    });
    await expect(granted).toContainText("user.grant-admin");
    await expect(granted).toContainText(admin.email);
    await expect(revoked).toContainText("user.revoke-admin");
    await revoked.getByText("Details").click();
    await expect(revoked.locator("pre")).toContainText('"isAdmin": false');

    // Times in UTC, then back to India time.
    const when = revoked.locator("time");
    const iso = (await when.getAttribute("datetime"))!;
    await expect(when).toHaveText(formatAdminDate(iso, "Asia/Kolkata"));
    await page.getByLabel("Times in").selectOption("UTC");
    await expect(when).toHaveText(formatAdminDate(iso, "UTC"));
    await page.reload();
    await expect(page.getByTestId("audit-entry").first().locator("time")).toBeVisible();
    await expect(
      page.getByTestId("audit-entry").filter({ hasText: `Revoked admin from ${newUser.email}` }),
    ).toContainText(formatAdminDate(iso, "UTC"));
    await page.getByLabel("Times in").selectOption("Asia/Kolkata");
    await expect(when).toHaveText(formatAdminDate(iso, "Asia/Kolkata"));
    await fitsSmallPhone(page);
  });

  test("subscribers: the count, each e-mail and date, and the CSV export", async ({ page }) => {
    const email = `news-${Date.now()}@example.com`;
    const res = await page.request.post("/api/newsletter", { form: { email } });
    expect(res.ok()).toBe(true);

    await signIn(page, admin);
    await page.goto("/admin/subscribers");
    await expect(page.getByRole("heading", { name: "Subscribers" })).toBeVisible();
    await expect(page.getByTestId("subscriber-count")).toHaveText(/^\d+ subscribers?$/);
    const row = page.getByRole("row", { name: new RegExp(email) });
    await expect(row).toBeVisible();
    await expect(row.locator("time")).toHaveText(/^\d{2}\/[A-Z][a-z]+\/\d{4} \d{2}:\d{2}:\d{2}$/);
    await fitsSmallPhone(page);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), "utf8");
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("email,subscribed_at");
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${email},\\d{4}-\\d{2}-\\d{2}T`)),
    );
  });
});
