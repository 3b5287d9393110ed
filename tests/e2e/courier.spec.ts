import { readFile } from "node:fs/promises";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { type FakeShiprocket, STATUS, startFakeShiprocket } from "../support/fake-shiprocket.ts";
import {
  addAddress,
  countEmails,
  expect,
  productId,
  readEmail,
  signIn,
  type TestUser,
  test,
} from "./fixtures.ts";

/*
 * Issue 24 "Must show": staff book a shipment on the courier (Shiprocket, the local fake that
 * follows its contract; scripts/e2e-server.ts points the shop at it), download the label PDF and
 * request the pickup; the fake's tracking updates, posted to the shop's webhook (a repeated one
 * too), move the order to delivered with one e-mail per step, and the customer sees the timeline
 * on /orders. Once on a desktop and once on a phone.
 */

const ADMIN = { email: "admin@example.com", password: "demo-admin-password" };
const WEBHOOK_TOKEN = "e2e-courier-webhook-token-0123";
const PHONE = { width: 390, height: 844 };

let fake: FakeShiprocket;
test.beforeAll(async () => {
  const port = Number(process.env.E2E_PORT ?? 3100) + 1000;
  fake = await startFakeShiprocket({ port });
  expect(fake.url).toContain(String(port));
});
test.afterAll(async () => {
  await fake?.close();
});

/** Buys one Lotus Tealight Holder through the sandbox gateway; returns the order number. */
async function buyLotus(page: Page) {
  await page.goto(`/product/${await productId(page, "Lotus Tealight Holder")}`);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Added to cart");
  await page.goto("/cart");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
  await addAddress(page);
  await page.getByRole("link", { name: "Continue to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole("button", { name: "Simulate success" }).click();
  await expect(page).toHaveURL(/\/orders$/, { timeout: 15_000 });
  const card = page.getByTestId("order-card").first();
  await expect(card).toContainText("Processing");
  const heading = await card.getByRole("heading").first().textContent();
  const orderNumber = heading?.match(/ORD-\d{8}-\d{4}/)?.[0];
  if (!orderNumber) throw new Error(`no order number in "${heading}"`);
  return orderNumber;
}

async function adminPage(browser: Browser, testInfo: TestInfo, phone: boolean) {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": `10.251.${testInfo.workerIndex}.${phone ? 9 : 8}` },
    ...(phone ? { viewport: PHONE } : {}),
    acceptDownloads: true,
  });
  const admin = await context.newPage();
  await signIn(admin, ADMIN);
  return { context, admin };
}

async function journey(
  page: Page,
  customer: TestUser,
  browser: Browser,
  testInfo: TestInfo,
  phone: boolean,
) {
  if (phone) await page.setViewportSize(PHONE);
  const orderNumber = await buyLotus(page);
  const { context, admin } = await adminPage(browser, testInfo, phone);
  const errors: string[] = [];
  admin.on("pageerror", (e) => errors.push(e.message));

  // Staff find the order and book it with the courier: prices and days from the carrier, the
  // parcel prefilled from the product.
  await admin.goto(`/admin/orders?q=${orderNumber}`);
  await admin.getByTestId("order-row").getByRole("link", { name: orderNumber }).click();
  await expect(admin.getByRole("heading", { level: 1, name: orderNumber })).toBeVisible();
  await admin.getByTestId("book-shipment-link").click();
  await expect(admin.getByRole("heading", { level: 1, name: "Shipment" })).toBeVisible();
  const options = admin.getByTestId("courier-option");
  await expect(options).toHaveCount(3);
  await expect(options.first()).toContainText("Xpressbees Surface");
  await expect(options.first()).toContainText("6 days");
  await expect(admin.getByLabel("Weight (g)")).not.toHaveValue("");
  await options.filter({ hasText: "Delhivery Surface" }).getByRole("radio").check();
  await admin.getByTestId("book-shipment").click();
  await expect(admin.getByTestId("shipment")).toBeVisible();
  await expect(admin.getByTestId("shipment-stage")).toHaveText(
    "Packed and booked with the courier",
  );
  const awb = (await admin.getByTestId("shipment-awb").textContent())?.trim() ?? "";
  expect(awb).toMatch(/^\d+$/);

  // The label PDF.
  const [download] = await Promise.all([
    admin.waitForEvent("download"),
    admin.getByTestId("shipment-label").click(),
  ]);
  const file = await download.path();
  expect((await readFile(file)).subarray(0, 5).toString()).toBe("%PDF-");

  // The pickup, then today's shipments list.
  await admin.getByTestId("request-pickup").click();
  await expect(admin.getByTestId("shipment-pickup")).toContainText("PT");
  await expect(admin.getByTestId("shipment-stage")).toHaveText("Courier pickup scheduled");
  await admin.goto("/admin/shipments");
  await expect(admin.getByTestId("shipments")).toContainText(orderNumber);

  // The courier's updates arrive on the webhook: one repeated, one out of order.
  const post = async (body: Record<string, unknown>, token = WEBHOOK_TOKEN) =>
    page.request.post("/api/courier/tracking", {
      data: body,
      headers: { "x-api-key": token },
    });
  const mailsBefore = await countEmails(customer.email);
  const t0 = Date.now() - 2 * 86_400_000;
  const shipped = fake.advance(awb, STATUS.PICKED_UP, new Date(t0));
  expect((await post(shipped, "wrong-token")).status()).toBe(401);
  expect((await post(shipped)).status()).toBe(200);
  expect(await (await post(shipped)).json()).toMatchObject({ outcome: "duplicate" });
  await readEmail(customer.email, { subject: new RegExp(`${orderNumber} has shipped`) });
  const inTransit = fake.advance(awb, STATUS.IN_TRANSIT, new Date(t0 + 6 * 3_600_000));
  await post(fake.advance(awb, STATUS.OUT_FOR_DELIVERY, new Date(t0 + 86_400_000)));
  await readEmail(customer.email, { subject: new RegExp(`${orderNumber} is out for delivery`) });
  await post(inTransit);
  await post(fake.advance(awb, STATUS.DELIVERED, new Date(t0 + 90_000_000)));
  const delivered = await readEmail(customer.email, {
    subject: new RegExp(`${orderNumber} was delivered`),
  });
  expect(delivered.text).toContain(orderNumber);
  // Shipped, out for delivery, delivered: each once, even when the updates come again.
  await expect.poll(() => countEmails(customer.email)).toBe(mailsBefore + 3);
  await post(shipped);
  // An earlier scan arriving late.
  await post(fake.advance(awb, STATUS.IN_TRANSIT, new Date(t0 + 50_000_000)));
  await page.waitForTimeout(1_000);
  expect(await countEmails(customer.email)).toBe(mailsBefore + 3);

  // The customer's timeline on /orders.
  await page.goto("/orders");
  const card = page.getByTestId("order-card").filter({ hasText: orderNumber });
  await expect(card).toContainText("Delivered");
  const timeline = card.getByTestId("tracking-timeline");
  await expect(timeline).toContainText(awb);
  await expect(timeline.getByTestId("tracking-event")).toHaveCount(5);
  await expect(timeline.getByTestId("tracking-event").first()).toContainText("Delivered");
  await expect(timeline).toContainText("Out for delivery");

  // The order page says delivered; staff see the courier's updates.
  await admin.goto(`/admin/orders?q=${orderNumber}`);
  await expect(admin.getByTestId("order-row")).toContainText("Delivered");
  expect(errors).toEqual([]);
  await context.close();
}

test("staff book a courier shipment and its tracking updates deliver the order (desktop)", async ({
  page,
  login,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const customer = await login();
  await journey(page, customer, browser, testInfo, false);
});

test("staff book a courier shipment and its tracking updates deliver the order (phone)", async ({
  page,
  login,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const customer = await login();
  await journey(page, customer, browser, testInfo, true);
});
