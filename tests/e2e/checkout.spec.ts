import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import {
  addAddress,
  expect,
  productId,
  readEmail,
  signIn,
  type TestUser,
  test,
} from "./fixtures.ts";

/*
 * From cart to paid order with the sandbox gateway (DESIGN.md: the TEST MODE page): success,
 * failure, and a payment left pending that the result page keeps checking until it settles.
 */

const rupees = (paise: number) =>
  new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" }).format(paise / 100);

async function addToCart(page: Page, name: string) {
  await page.goto(`/product/${await productId(page, name)}`);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Added to cart");
}

/** Signs in, fills the cart with one Lotus Tealight Holder (₹349) and reaches /checkout. */
async function toCheckout(
  page: Page,
  login: () => Promise<TestUser>,
  product = "Lotus Tealight Holder",
) {
  const user = await login();
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/cart$/); // empty cart → /cart
  await addToCart(page, product);
  await page.goto("/cart");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  // No address yet → /addresses with the spec's message.
  await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
  await expect(page.getByTestId("toast")).toContainText("No addresses found");
  await addAddress(page);
  await page.getByRole("link", { name: "Continue to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  return user;
}

/** The admin turns the shop's cash on delivery setting on or off (the demo shop offers it). */
async function offerCashOnDelivery(admin: Page, on: boolean) {
  await admin.goto("/admin/settings");
  await admin.getByLabel("Offer cash on delivery").setChecked(on);
  await admin.getByRole("button", { name: "Save Settings" }).click();
  await expect(admin.getByTestId("toast")).toContainText("Settings saved");
}

const LOTUS = 34_900;
// Shipping within the city (560001 to 560001), the first 500 g: ₹40 by the demo's rate table.
const SHIPPING = 4_000;
const TOTAL = LOTUS + SHIPPING + Math.round(LOTUS * 0.08); // ₹349 + ₹40 + 8% tax
// The demo's cash on delivery fee within the city (issue 24: ₹49 in every zone but the special ones).
const COD_FEE = 4_900;

test.describe("checkout and payment", () => {
  test("success: paid order, empty cart, Processing in My Orders, GST invoice", async ({
    page,
    login,
  }) => {
    const user = await toCheckout(page, login);
    await expect(page.getByTestId("checkout-total")).toHaveText(rupees(TOTAL));
    // Fits a small phone: nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 720 });
    await expect(page.getByText("Coming Soon")).toBeVisible();
    await expect(page.getByLabel(/Credit \/ Debit Card/)).toBeDisabled();
    await expect(page.locator("address")).toContainText("Asha Rao");

    await page.getByRole("button", { name: `Pay ${rupees(TOTAL)}` }).click();
    await expect(page).toHaveURL(/\/sandbox\/pay\//);
    await expect(page.getByText("TEST MODE")).toBeVisible();
    await expect(page.getByTestId("sandbox-amount")).toHaveText(rupees(TOTAL));
    await page.getByRole("button", { name: "Simulate success" }).click();

    await expect(page).toHaveURL(/\/payment-success\?orderId=/);
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    // …and on to My Orders after 2 s.
    await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });
    const card = page.getByTestId("order-card").first();
    await expect(card).toContainText("Processing");
    await expect(card).toContainText(rupees(TOTAL));
    await expect(card).toContainText("Lotus Tealight Holder");
    const orderNumber = (await card.getByRole("heading").first().textContent())?.match(
      /ORD-\d{8}-\d{4}/,
    )?.[0];
    expect(orderNumber).toBeTruthy();

    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();

    // View Details shows the payment summary.
    await page.goto("/orders");
    await page
      .getByRole("button", { name: /View Details/ })
      .first()
      .click();
    const details = page.getByRole("dialog");
    await expect(details).toContainText("Standard Shipping");
    await expect(details).toContainText(rupees(SHIPPING));
    await expect(details).toContainText(rupees(TOTAL));
    await page.keyboard.press("Escape");

    // The invoice: a PDF with the order number and the intra-state GST split (Karnataka).
    const downloading = page.waitForEvent("download");
    await page
      .getByRole("link", { name: /Download Invoice/ })
      .first()
      .click();
    const download = await downloading;
    const pdf = await getDocumentProxy(new Uint8Array(await readFile(await download.path())));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain(orderNumber!);
    expect(text).toContain("CGST");
    expect(text).toContain("SGST");
    expect(text).not.toContain("IGST");

    const mail = await readEmail(user.email, { subject: /confirmed/ });
    expect(mail.subject).toContain(orderNumber!);
    expect(mail.text).toContain(rupees(TOTAL));
  });

  test("the result page opened again leaves a newer cart alone; Back from My Orders skips it", async ({
    page,
    login,
  }) => {
    await toCheckout(page, login);
    await page.getByRole("button", { name: `Pay ${rupees(TOTAL)}` }).click();
    await page.getByRole("button", { name: "Simulate success" }).click();
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    const resultUrl = page.url();
    await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });
    // The move to My Orders replaced the result page in the history.
    await page.goBack();
    await expect(page).not.toHaveURL(/\/payment-success/);

    // The same lamp again, then the old result page from the history or a bookmark.
    await addToCart(page, "Lotus Tealight Holder");
    await page.goto(resultUrl);
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });
    await page.goto("/cart");
    await expect(page.getByTestId("line-quantity")).toHaveText("1");
    await expect(page.getByRole("link", { name: "Lotus Tealight Holder" })).toBeVisible();
    // …and the stored cart kept it too (what another device or checkout would read).
    await expect
      .poll(
        async () =>
          ((await (await page.request.get("/api/cart")).json()) as { lines: unknown[] }).lines
            .length,
      )
      .toBe(1);
  });

  test("the result page as another browser's first signed-in page keeps that browser's guest cart", async ({
    page,
    login,
    browser,
  }, testInfo) => {
    const user = await toCheckout(page, login);
    await page.getByRole("button", { name: `Pay ${rupees(TOTAL)}` }).click();
    await page.getByRole("button", { name: "Simulate success" }).click();
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    const resultUrl = page.url();

    // A phone with a spinner in its guest cart signs in, and its first page is the result page
    // (a payment app returning there). Its merge of the guest cart is still loading when the
    // payment is confirmed.
    const phone = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      const other = await phone.newPage();
      await addToCart(other, "Geared Spinner Fidget");
      await signIn(other, user);
      await other.route("**/api/cart", async (route) => {
        if (route.request().method() === "GET") await new Promise((r) => setTimeout(r, 1500));
        await route.fallback();
      });
      await other.goto(resultUrl);
      await expect(other.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
      await expect(other).toHaveURL(/\/orders$/, { timeout: 10_000 });
      await other.unroute("**/api/cart");
      // The spinner reached the account's cart and stays; the paid lamp isn't there.
      const stored = async () =>
        (
          (await (await other.request.get("/api/cart")).json()) as {
            lines: Array<{ name: string }>;
          }
        ).lines.map((l) => l.name);
      await expect.poll(stored).toEqual(["Geared Spinner Fidget"]);
      await other.goto("/cart");
      await expect(other.getByRole("link", { name: "Geared Spinner Fidget" })).toBeVisible();
      expect(await stored()).toEqual(["Geared Spinner Fidget"]);
    } finally {
      await phone.close();
    }
  });

  test("failure: 'Payment Failed', back to checkout with the cart kept", async ({
    page,
    login,
  }) => {
    await toCheckout(page, login);
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.getByRole("button", { name: "Simulate failure" }).click();
    await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();
    await expect(page.getByTestId("toast")).toContainText(
      "Your payment could not be processed. Please try again.",
    );
    await expect(page).toHaveURL(/\/checkout$/, { timeout: 10_000 });
    await expect(page.getByTestId("checkout-total")).toHaveText(rupees(TOTAL));
    await expect(page.getByTestId("cart-count")).toHaveText("1");
  });

  test("pending: the result page keeps checking until the payment settles", async ({
    page,
    login,
  }) => {
    await toCheckout(page, login);
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/sandbox\/pay\//);
    const sandboxUrl = page.url();
    await page.getByRole("button", { name: "Leave pending" }).click();
    await expect(page.getByRole("heading", { name: "Payment Pending" })).toBeVisible();

    // The gateway settles it later (its notification reaches the webhook); polling picks it up.
    const gateway = await page.context().newPage();
    await gateway.goto(sandboxUrl);
    await gateway.getByRole("button", { name: "Simulate success" }).click();
    await expect(gateway).toHaveURL(/\/payment-success/);
    await gateway.close();
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });
    await expect(page.getByTestId("order-card").first()).toContainText("Processing");
  });

  test("a buyer writes a review from My Orders, edits it, and the product page shows it", async ({
    page,
    login,
  }) => {
    // A product no other journey reviews or counts reviews of.
    const ROBOT = "Bolt-7 Desk Buddy Robot";
    const robot = await productId(page, ROBOT);
    await page.goto(`/product/${robot}`);
    const count = async () =>
      Number((await page.getByTestId("review-count").textContent())?.match(/\d+/)?.[0]);
    const star = async (n: number) =>
      Number(await page.getByTestId(`rating-${n}-count`).textContent());
    const [before, fours, twos] = [await count(), await star(4), await star(2)];

    await toCheckout(page, login, ROBOT);
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.getByRole("button", { name: "Simulate success" }).click();
    await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });

    await page.getByRole("button", { name: `Write Review: ${ROBOT}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("label", { hasText: "4 stars" }).click();
    await dialog.getByLabel("Title (optional)").fill("Lovely glow");
    await dialog.getByLabel("Review (optional)").fill("Clean layers, sturdy base.");
    await dialog.getByRole("button", { name: "Submit Review" }).click();
    await expect(page.getByTestId("toast")).toContainText("Review Submitted");
    await page.getByRole("button", { name: `Edit Review: ${ROBOT}` }).click();
    await expect(dialog.getByLabel("Title (optional)")).toHaveValue("Lovely glow");
    await dialog.locator("label", { hasText: "2 stars" }).click();
    await dialog.getByLabel("Title (optional)").fill("Dimmer than hoped");
    await dialog.getByRole("button", { name: "Update Review" }).click();
    await expect(page.getByTestId("toast")).toContainText("Review Updated");

    await page.goto(`/product/${robot}`);
    expect(await count()).toBe(before + 1);
    expect(await star(4)).toBe(fours);
    expect(await star(2)).toBe(twos + 1);
    await expect(page.getByTestId("reviews")).toContainText("Dimmer than hoped");
    await expect(page.getByTestId("reviews")).toContainText("Verified");
    // The product page offers the buyer the same dialog (loaded for buyers only).
    await page.getByRole("button", { name: "Edit Review" }).click();
    await expect(dialog.getByLabel("Title (optional)")).toHaveValue("Dimmer than hoped");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  });

  test("cash on delivery: the admin offers it, the order goes straight to My Orders, cart emptied", async ({
    page,
    browser,
    login,
  }, testInfo) => {
    // Two people's sessions, a settings save, an order and an e-mail: over a minute on a loaded
    // machine (CI saw 60 s pass and the page torn down mid-journey).
    test.slow();
    // The shop offers cash on delivery (the demo does; set again in case a journey left it off).
    const adminContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const admin = await adminContext.newPage();
    await signIn(admin, { email: "admin@example.com", password: "demo-admin-password" });
    await offerCashOnDelivery(admin, true);
    try {
      const user = await toCheckout(page, login);
      await page.getByLabel(/Cash on Delivery/).check();
      // The fee shows as its own line and is in the total.
      await expect(page.getByTestId("checkout-cod-fee")).toHaveText(rupees(COD_FEE));
      await expect(page.getByTestId("checkout-total")).toHaveText(rupees(TOTAL + COD_FEE));
      await page.getByRole("button", { name: `Place Order · ${rupees(TOTAL + COD_FEE)}` }).click();
      await expect(page).toHaveURL(/\/orders$/);
      const card = page.getByTestId("order-card").first();
      await expect(card).toContainText("Processing");
      await expect(card).toContainText(rupees(TOTAL + COD_FEE));
      await expect(page.getByTestId("cart-count")).toHaveCount(0);
      await page
        .getByRole("button", { name: /View Details/ })
        .first()
        .click();
      await expect(page.getByRole("dialog")).toContainText("Cash on Delivery");
      await page.keyboard.press("Escape");
      const mail = await readEmail(user.email, { subject: /confirmed/ });
      expect(mail.text).toContain("in cash");
    } finally {
      await adminContext.close();
    }
  });

  test("cash on delivery after a payment left pending: warned first, and staff see why it was cancelled", async ({
    page,
    browser,
    login,
  }, testInfo) => {
    const adminContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const admin = await adminContext.newPage();
    await signIn(admin, { email: "admin@example.com", password: "demo-admin-password" });
    await offerCashOnDelivery(admin, true);
    try {
      await toCheckout(page, login);
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/sandbox\/pay\//);
      await page.getByRole("button", { name: "Leave pending" }).click();
      await expect(page.getByRole("heading", { name: "Payment Pending" })).toBeVisible();
      await page.goto("/orders");
      const pendingNumber = (
        await page
          .getByTestId("order-card")
          .first()
          .getByRole("heading", { level: 2 })
          .textContent()
      )?.trim();
      expect(pendingNumber).toBeTruthy();

      // Back at checkout, choosing cash on delivery says what happens to the pending payment.
      await page.goto("/checkout");
      await expect(page.getByTestId("open-payment-notice")).toHaveCount(0);
      await page.getByLabel(/Cash on Delivery/).check();
      const notice = page.getByTestId("open-payment-notice");
      await expect(notice).toContainText(
        `Order ${pendingNumber} is still waiting for an online payment`,
      );
      await expect(notice).toContainText("refunded in full");
      await page.getByRole("button", { name: `Place Order · ${rupees(TOTAL + COD_FEE)}` }).click();
      await expect(page).toHaveURL(/\/orders$/);

      // Staff see the reason on the cancelled order, in its notes and its history.
      await admin.goto(`/admin/orders?q=${encodeURIComponent(pendingNumber ?? "")}`);
      await admin
        .getByRole("link", { name: pendingNumber ?? "" })
        .first()
        .click();
      await expect(admin.getByTestId("order-notes")).toContainText(
        "Replaced by the customer's newer order",
      );
      await expect(admin.getByText("LayerKart (automatic)")).toBeVisible();
    } finally {
      await offerCashOnDelivery(admin, true);
      await adminContext.close();
    }
  });

  test("the result page without an order id, and another customer's order", async ({
    page,
    login,
  }) => {
    await page.goto("/payment-success");
    await expect(page.getByRole("heading", { name: "Payment Result Unavailable" })).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });

    await login();
    await page.goto(
      "/payment-success?orderId=00000000-0000-4000-8000-000000000000&transactionId=ORD-20260101-1234-abcd",
    );
    await expect(page.getByRole("heading", { name: "Payment Verification Failed" })).toBeVisible();
    await expect(page.getByRole("main").getByText("Order not found")).toBeVisible();

    await page.goto("/payment-success?orderId=00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "Invalid Payment Response" })).toBeVisible();
  });
});
