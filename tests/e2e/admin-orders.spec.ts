import type { Page } from "@playwright/test";
import {
  addAddress,
  expect,
  expectAccessible,
  productId,
  readEmail,
  signIn,
  test,
} from "./fixtures.ts";

/*
 * Issue 7 "Must show": an order moves processing → shipped (the customer sees Track Package with
 * the tracking number) → delivered (Return Items appears); the customer asks for a return and
 * the admin approves it, then records the refund. The customer buys through the real checkout;
 * the admin works in a browser context of their own.
 */

const ADMIN = { email: "admin@example.com", password: "demo-admin-password" };

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

/** Nothing on the page scrolls sideways at phone width (tables scroll inside their own box). */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 360, height: 780 });
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** axe in the light and the dark theme. */
async function accessibleInBothThemes(page: Page) {
  await page.emulateMedia({ colorScheme: "light" });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "light" });
}

test("an order moves processing → shipped → delivered, and its return is approved and refunded", async ({
  page,
  login,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const customer = await login();
  const orderNumber = await buyLotus(page);
  const card = page.getByTestId("order-card").filter({ hasText: orderNumber });

  // The admin, in a browser of their own.
  const adminContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": `10.250.${testInfo.workerIndex}.7` },
  });
  const admin = await adminContext.newPage();
  const adminErrors: string[] = [];
  admin.on("pageerror", (e) => adminErrors.push(e.message));
  await signIn(admin, ADMIN);

  // Finds the order by its number.
  await admin.goto("/admin/orders");
  await expect(admin.getByRole("heading", { name: "Orders", exact: true })).toBeVisible();
  await admin.getByRole("searchbox", { name: "Search orders" }).fill(orderNumber);
  await admin.getByRole("button", { name: "Apply" }).click();
  await expect(admin).toHaveURL(new RegExp(`q=${orderNumber}`));
  await expect(admin.getByTestId("order-row")).toHaveCount(1);
  const row = admin.getByTestId("order-row");
  await expect(row).toContainText(customer.email);
  await expect(row).toContainText("Processing");
  await expect(row).toContainText("Paid");
  // The filters survive a reload and travel with the export.
  await admin.reload();
  await expect(admin.getByRole("searchbox", { name: "Search orders" })).toHaveValue(orderNumber);
  await expect(admin.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    `/admin/orders.csv?q=${orderNumber}`,
  );
  await fitsPhone(admin);
  await accessibleInBothThemes(admin);

  await row.getByRole("link", { name: orderNumber }).click();
  await expect(admin.getByRole("heading", { level: 1, name: orderNumber })).toBeVisible();
  await expect(admin.getByTestId("order-status")).toHaveText("Processing");

  // Ship: carrier and tracking number are required, the URL must be http(s).
  const trackingNumber = `DLV${Date.now().toString().slice(-9)}`;
  await admin.getByRole("button", { name: "Mark as shipped" }).click();
  const ship = admin.getByRole("dialog", { name: "Mark as shipped" });
  await ship.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(ship.getByText("Please enter the carrier.")).toBeVisible();
  await ship.getByLabel("Carrier").fill("Delhivery");
  await ship.getByLabel("Tracking number").fill(trackingNumber);
  await ship.getByLabel("Tracking URL (optional)").fill("javascript:alert(1)");
  await ship.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(ship.getByText(/must be a web address/)).toBeVisible();
  await ship
    .getByLabel("Tracking URL (optional)")
    .fill(`https://www.delhivery.com/track/package/${trackingNumber}`);
  await expectAccessible(admin);
  await ship.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(admin.getByTestId("toast")).toContainText("Order updated");
  await expect(ship).toBeHidden();
  await expect(admin.getByTestId("order-status")).toHaveText("Shipped");
  await expect(admin.getByTestId("tracking-number")).toHaveText(trackingNumber);

  // The customer is told, and sees Track Package with the tracking number.
  const mail = await readEmail(customer.email, { subject: /has shipped/ });
  expect(mail.subject).toContain(orderNumber);
  expect(mail.text).toContain(trackingNumber);
  expect(mail.text).toContain("Delhivery");
  await page.goto("/orders");
  await expect(card).toContainText("Shipped");
  await expect(card.getByRole("button", { name: /Return Items/ })).toHaveCount(0);
  await card.getByRole("button", { name: /Track Package/ }).click();
  const track = page.getByRole("dialog", { name: "Track Package" });
  await expect(track).toContainText(trackingNumber);
  await expect(track).toContainText("Delhivery");
  await page.keyboard.press("Escape");
  await expect(track).toBeHidden();

  // Deliver.
  await admin.getByRole("button", { name: "Mark as delivered" }).click();
  const confirmDeliver = admin.getByRole("alertdialog", { name: "Mark this order as delivered?" });
  await confirmDeliver.getByRole("button", { name: "Mark as delivered" }).click();
  await expect(admin.getByTestId("toast")).toContainText("Order updated");
  await expect(admin.getByTestId("order-status")).toHaveText("Delivered");

  // The customer now sees Return Items (and no Track Package), and asks for a return.
  await page.goto("/orders");
  await expect(card).toContainText("Delivered");
  await expect(card.getByRole("button", { name: /Track Package/ })).toHaveCount(0);
  await card.getByRole("button", { name: /Return Items/ }).click();
  const ret = page.getByRole("dialog", { name: "Return Items" });
  await ret.getByLabel("Reason").fill("The lotus petals arrived chipped.");
  await ret.getByRole("button", { name: "Request Return" }).click();
  await expect(page.getByTestId("toast")).toContainText("Return requested");
  await expect(ret).toBeHidden();
  await expect(card.getByTestId("return-status")).toHaveText(/Return requested/);

  // The admin finds it among the return requests and approves it.
  await admin.goto("/admin/orders?view=returns");
  await expect(admin.getByRole("link", { name: "Return requests" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const pending = admin.getByTestId("order-row").filter({ hasText: orderNumber });
  await expect(pending).toContainText("Return requested");
  await pending.getByRole("link", { name: orderNumber }).click();
  await expect(admin.getByTestId("return-request")).toContainText(
    "The lotus petals arrived chipped.",
  );
  await expect(admin.getByTestId("return-request")).toContainText("Lotus Tealight Holder × 1");
  await admin.getByRole("button", { name: "Approve return" }).click();
  await admin
    .getByRole("alertdialog", { name: "Approve this return?" })
    .getByRole("button", { name: "Approve return" })
    .click();
  await expect(admin.getByTestId("toast")).toContainText("Order updated");
  await expect(admin.getByTestId("return-request")).toContainText("Return approved");

  await page.goto("/orders");
  await expect(card.getByTestId("return-status")).toHaveText(/Return approved/);

  // Once the money is back with the customer, the refund is recorded.
  await admin.getByRole("button", { name: "Record refund" }).click();
  await admin
    .getByRole("alertdialog", { name: /Record a refund of/ })
    .getByRole("button", { name: "Record refund" })
    .click();
  await expect(admin.getByTestId("toast")).toContainText("Order updated");
  await expect(admin.getByTestId("order-status")).toHaveText("Refunded");
  await expect(admin.getByTestId("no-actions")).toBeVisible();
  await expect(admin.getByRole("region", { name: "History" })).toContainText(
    `Shipped ${orderNumber} with Delhivery (${trackingNumber})`,
  );
  await fitsPhone(admin);
  await accessibleInBothThemes(admin);

  expect(adminErrors, "uncaught errors in the admin's page").toEqual([]);
  await adminContext.close();
});

test("staff cancel a paid order: the customer is e-mailed, sees the refund due and no Write Review", async ({
  page,
  login,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const customer = await login();
  const orderNumber = await buyLotus(page);
  const card = page.getByTestId("order-card").filter({ hasText: orderNumber });
  await expect(card.getByRole("button", { name: /Write Review/ })).toBeVisible();

  const adminContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": `10.251.${testInfo.workerIndex}.7` },
  });
  const admin = await adminContext.newPage();
  await signIn(admin, ADMIN);
  await admin.goto(`/admin/orders?q=${orderNumber}`);
  await admin.getByTestId("order-row").getByRole("link", { name: orderNumber }).click();
  await admin.getByRole("button", { name: "Cancel order" }).click();
  const confirm = admin.getByRole("alertdialog", { name: `Cancel ${orderNumber}?` });
  await expect(confirm).toContainText("the customer is told by e-mail");
  await confirm.getByRole("button", { name: "Cancel order" }).click();
  await expect(admin.getByTestId("toast")).toContainText("Order updated");
  await expect(admin.getByTestId("order-status")).toHaveText("Cancelled");
  // Staff see what is owed until they record it.
  await expect(admin.getByTestId("admin-refund-due")).toContainText("Refund due");
  await adminContext.close();

  const mail = await readEmail(customer.email, { subject: /was cancelled/ });
  expect(mail.subject).toContain(orderNumber);
  expect(mail.text).toContain("We'll refund");

  await page.goto("/orders");
  await expect(card).toContainText("Cancelled");
  await expect(card.getByRole("button", { name: /Write Review/ })).toHaveCount(0);
  await card.getByRole("button", { name: `View Details: ${orderNumber}` }).click();
  await expect(page.getByTestId("refund-due")).toContainText("we'll refund the full amount");
});
