import type { Page } from "@playwright/test";
import { cube, toBinaryStl } from "../../app/rules/model3d/testing/shapes.ts";
import { shortDate } from "../../app/rules/working-days.ts";
import { expect, signIn, test } from "./fixtures.ts";

/*
 * Issue 26: Standard or Express for a custom project, with the ready-by date from the print
 * queue on the quote, in the PIN box and in the cart; staff re-price a part in the review queue
 * before payment and the customer sees the new price and the note.
 */

async function dropCube(page: Page, name = "cube.stl") {
  await page.locator("#model-file").setInputFiles({
    name,
    mimeType: "model/stl",
    buffer: Buffer.from(toBinaryStl(cube(10))),
  });
}

/** What the server says for a custom part ready on `day`, to PIN 700016. */
async function deliverBy(page: Page, day: string) {
  const res = await page.request.get(`/api/delivery-estimate?pin=700016&kind=custom&ready=${day}`);
  const body = (await res.json()) as { readyBy: string; deliverBy: string };
  expect(body.readyBy >= day).toBe(true);
  return shortDate(body.deliverBy);
}

test.describe("print dates", () => {
  test("choose Express: the surcharge and the earlier date on the quote and in the PIN box, then the cart shows both", async ({
    page,
    login,
  }) => {
    await login();
    await page.goto("/custom-printing");
    await dropCube(page, "gear.stl");
    // A 10 mm cube costs the minimum: ₹500 a piece, Standard.
    await expect(page.getByTestId("quote-total")).toHaveText("₹500.00");
    const standardDate = page.getByTestId("speed-standard-date");
    const expressDate = page.getByTestId("speed-express-date");
    await expect(standardDate).toHaveText(/^Ready by /);
    const standardDay = (await standardDate.getAttribute("data-day"))!;
    const expressDay = (await expressDate.getAttribute("data-day"))!;
    expect(expressDay <= standardDay).toBe(true);
    await expect(standardDate).toHaveText(`Ready by ${shortDate(standardDay)}`);

    // The PIN box counts the courier's days from the project's ready-by date.
    const box = page.getByTestId("pin-box");
    await box.getByLabel("PIN code").fill("700016");
    await box.getByRole("button", { name: "Check" }).click();
    await expect(box.getByTestId("pin-answer")).toContainText(
      `by ${await deliverBy(page, standardDay)}`,
    );

    // Express: +40 % on the piece, its own date, and the PIN box follows.
    await page.getByLabel(/^Express/).check();
    await expect(page.getByTestId("quote-express")).toHaveText("+₹200.00");
    await expect(page.getByTestId("quote-total")).toHaveText("₹700.00");
    await expect(box.getByTestId("pin-answer")).toContainText(
      `by ${await deliverBy(page, expressDay)}`,
    );

    const add = page.getByRole("button", { name: "Add to cart" });
    await expect(add).toBeEnabled({ timeout: 15_000 });
    await add.click();
    await expect(page.getByTestId("toast")).toContainText("Custom part added to your cart");
    await page.getByRole("link", { name: "Go to cart" }).click();
    const line = page.getByTestId("cart-line");
    await expect(line).toContainText("Custom print: gear (PLA, Black, Express)");
    await expect(line).toContainText("₹700.00 each");
    await expect(line.getByTestId("line-part-date")).toHaveText(
      `Express · ready by ${shortDate(expressDay)}`,
    );
    await expect(page.getByTestId("summary-subtotal")).toHaveText("₹700.00");
  });

  test("staff re-price a part in the review queue; the customer sees the new price and the note before paying", async ({
    page,
    login,
  }) => {
    const customer = await login();
    await page.goto("/custom-printing");
    await dropCube(page, "bracket.stl");
    const add = page.getByRole("button", { name: "Add to cart" });
    await expect(add).toBeEnabled({ timeout: 15_000 });
    await add.click();
    await expect(page.getByTestId("toast")).toContainText("Custom part added to your cart");

    // Staff, on another browser.
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signIn(page, { email: "admin@example.com", password: "demo-admin-password" });
    await page.goto("/admin/quotes?status=in_cart");
    // The slicer's figures beside the instant ones, once its job has run (decision 0020; the e2e
    // server always has a slicer, PrusaSlicer or the fake); a 10 mm cube costs the minimum either
    // way, so its price is kept.
    const row = page.getByRole("listitem").filter({ hasText: "bracket.stl" }).first();
    await expect(async () => {
      await page.reload();
      await expect(row.getByTestId("quote-slice")).toContainText("Material", { timeout: 1000 });
    }).toPass({ timeout: 120_000 });
    await expect(row.getByTestId("quote-slice")).toHaveText(
      /^Slicer: Within the tolerance: price kept · Material [\d.]+ g \(instant [\d.]+ g\) · Support [\d.]+ g \(instant 0 g\) · Print time \d+ min \(instant \d+ min\)/,
    );
    await page.getByRole("link", { name: "bracket.stl" }).first().click();
    await expect(page.getByTestId("quote-speed")).toHaveText("Standard");
    await expect(page.getByTestId("quote-ready-by")).toHaveText(/^Ready by /);
    await page.getByLabel("Note for the customer").fill("Printed with a smoother finish.");
    await page.getByLabel("New price per piece (₹)").fill("450");
    await page.getByRole("button", { name: "Re-price this part" }).click();
    await expect(page.getByTestId("toast")).toContainText("Price updated");
    await expect(page.getByTestId("quote-price-note")).toHaveText(
      "Printed with a smoother finish.",
    );

    // The customer's cart: the new price, with the note, before paying.
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signIn(page, customer);
    await page.goto("/cart");
    const line = page.getByTestId("cart-line");
    await expect(line).toContainText("₹450.00 each");
    await expect(line.getByTestId("line-price-note")).toHaveText(
      "Our team updated this part's price: Printed with a smoother finish.",
    );
    await expect(page.getByTestId("summary-subtotal")).toHaveText("₹450.00");
  });
});
