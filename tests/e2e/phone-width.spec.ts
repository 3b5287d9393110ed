import { openBox, toBinaryStl } from "../../app/rules/model3d/testing/shapes.ts";
import { expect, expectFitsViewport, productId, signIn, test } from "./fixtures.ts";

/*
 * Long user-written text on a phone. Reviews, names, addresses and notes are what customers and
 * staff typed, up to each field's limit and possibly without a single space: each page that shows
 * them must wrap them and stay no wider than the phone (a 1,000-character review once made a
 * product page 7,090 px wide on 390 px, and a long quote note the admin quote page 16,275 px).
 * Every page this journey opens is also checked by the page fixture at the phone's width.
 */

const PHONE = { width: 390, height: 844 };
const PRODUCT = "Hanging Geo Planter";
/** Unbroken text: `n` characters and no space, hyphen or other break. */
const unbroken = (n: number, letter = "W") => letter.repeat(n);

test("a 1,000-character review, long names, an address and a quote note fit a 390 px phone", async ({
  page,
  login,
}) => {
  test.setTimeout(150_000);
  const customer = await login();
  await page.setViewportSize(PHONE);

  // A customer whose name and address are one long word each.
  await page.goto("/account");
  await page.getByLabel("Full name").fill(unbroken(120, "N"));
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByTestId("toast")).toContainText("Profile saved");
  await expectFitsViewport(page);

  await page.goto(`/product/${await productId(page, PRODUCT)}`);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Added to cart");
  await page.goto("/cart");
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
  await page.getByRole("button", { name: "Add Address" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Address" });
  await dialog.getByLabel("Full name").fill(unbroken(120, "A"));
  await dialog.getByLabel("Street address").fill(unbroken(200, "S"));
  await dialog.getByLabel("City").fill(unbroken(100, "C"));
  await dialog.getByLabel("State").fill(unbroken(100, "K"));
  await dialog.getByLabel("PIN code").fill("560001");
  await dialog.getByLabel("Phone").fill("9876543210");
  await dialog.getByRole("button", { name: "Save Address" }).click();
  await expect(dialog).toBeHidden();
  await expectFitsViewport(page);
  await page.getByRole("link", { name: "Continue to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expectFitsViewport(page);
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.getByRole("button", { name: "Simulate success" }).click();
  await expect(page).toHaveURL(/\/orders$/, { timeout: 10_000 });

  // The review: a title and a text at their limits, without a space.
  await page.getByRole("button", { name: `Write Review: ${PRODUCT}` }).click();
  const review = page.getByRole("dialog");
  await review.locator("label", { hasText: "5 stars" }).click();
  await review.getByLabel("Title (optional)").fill(unbroken(100, "T"));
  await review.getByLabel("Review (optional)").fill(unbroken(1000, "R"));
  await review.getByRole("button", { name: "Submit Review" }).click();
  await expect(page.getByTestId("toast")).toContainText("Review Submitted");
  await expectFitsViewport(page);

  await page.goto(`/product/${await productId(page, PRODUCT)}`);
  await expect(page.getByTestId("reviews")).toContainText(unbroken(1000, "R"));
  await expectFitsViewport(page);
  // Add to Cart is still there to tap.
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Added to cart");

  // A model for staff to look at, with a 2,000-character note.
  await page.goto("/custom-printing");
  await page.locator("#model-file").setInputFiles({
    name: "open-box.stl",
    mimeType: "model/stl",
    buffer: Buffer.from(toBinaryStl(openBox(30))),
  });
  const request = page.getByRole("button", { name: "Request review" });
  await expect(request).toBeEnabled({ timeout: 15_000 });
  await request.click();
  await page.getByLabel("What should our team know?").fill(unbroken(2000, "Q"));
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByTestId("toast")).toContainText("Review requested");
  await page.goto("/custom-printing#my-quotes");
  await expectFitsViewport(page);

  // Staff, on the same phone, see all of it.
  await page.context().clearCookies();
  await signIn(page, { email: "admin@example.com", password: "demo-admin-password" });
  await page.goto("/admin/orders");
  const row = page.getByTestId("order-row").filter({ hasText: customer.email }).first();
  await expectFitsViewport(page);
  await row.getByRole("link").first().click();
  await expect(page.getByText(unbroken(200, "S")).first()).toBeVisible();
  await expectFitsViewport(page);
  await page.goto("/admin/quotes");
  await expectFitsViewport(page);
  await page.getByRole("link", { name: "open-box.stl" }).first().click();
  await expect(page.getByText(unbroken(2000, "Q"))).toBeVisible();
  await expectFitsViewport(page);
  await page.goto(`/admin/users?q=${encodeURIComponent(customer.email)}`);
  await expect(page.getByText(unbroken(120, "N")).first()).toBeVisible();
  await expectFitsViewport(page);
  await page.goto("/admin");
  await expectFitsViewport(page);
});
