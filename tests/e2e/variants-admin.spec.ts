import type { Page } from "@playwright/test";
import { expect, expectFitsViewport, signIn, test } from "./fixtures.ts";

/*
 * Issue 22, the staff's side: the admin adds a product, gives it Colour (2 values) × Size (3
 * values), generates the 6 variants, sets prices and stock in the variant table, finds it on
 * /products at its lowest price, and exports then imports the products CSV without changing it.
 * The product is taken out of the shop at the end, so later journeys see the demo catalogue.
 */

const demoAdmin = { email: "admin@example.com", password: "demo-admin-password" };

function addItemForm(page: Page) {
  return page.locator("section", { has: page.getByRole("heading", { name: "Add item" }) });
}

/** The export's header and the rows of one product. */
async function exportedRows(page: Page, productId: string): Promise<string[]> {
  const response = await page.request.get("/admin/products.csv");
  expect(response.status()).toBe(200);
  const lines = (await response.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  return [lines[0], ...lines.filter((l) => l.startsWith(`${productId},`))];
}

test.describe("options and variants in the admin", () => {
  test("the admin creates a 2×3 product, sets prices and stock in the table, and the CSV round-trips", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signIn(page, demoAdmin);
    await page.goto("/admin/items");
    const form = addItemForm(page);
    const idInput = form.locator('input[name="productId"]');
    await expect(idInput).toHaveValue(/^[0-9a-f-]{36}$/);
    const productId = await idInput.inputValue();
    const name = `Variant Dragon ${Date.now()}`;
    await form.getByLabel("Product name").fill(name);
    await form.getByLabel(/^Price/).fill("499");
    await form.getByLabel(/^Category/).selectOption("3D Prints");
    await form.getByLabel(/^Description/).fill("A dragon printed in two colours and three sizes.");
    await form.getByRole("button", { name: "Add item" }).click();
    await expect(page.getByTestId("toast")).toContainText("Product created");

    try {
      await journey(page, productId, name);
    } finally {
      // Taken out of the shop again (whatever happened), so later journeys keep the demo
      // catalogue.
      await page.goto(`/admin/items/${productId}`);
      await page.getByLabel("Active (shown in the shop)").uncheck();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByTestId("toast")).toContainText("Changes saved", { timeout: 30_000 });
    }
  });
});

async function journey(page: Page, productId: string, name: string) {
  await page.goto(`/admin/items/${productId}`);
  const section = page.locator("section", {
    has: page.getByRole("heading", { name: "Options and variants" }),
  });
  await expect(section).toBeVisible();

  // Colour: Red (with a swatch) and Blue; Size: S, M, L.
  await section.getByRole("button", { name: "Add option" }).click();
  await section.getByLabel("Option name").nth(0).fill("Colour");
  await section.getByLabel("Colour value 1").fill("Red");
  await section.getByLabel("Swatch of Red").fill("#e11d48");
  await section.getByRole("button", { name: "Add a value to Colour" }).click();
  await section.getByLabel("Colour value 2").fill("Blue");
  await section.getByRole("button", { name: "Add option" }).click();
  await section.getByLabel("Option name").nth(1).fill("Size");
  await section.getByLabel("Size value 1").fill("L");
  await section.getByRole("button", { name: "Add a value to Size" }).click();
  await section.getByLabel("Size value 2").fill("S");
  await section.getByRole("button", { name: "Add a value to Size" }).click();
  await section.getByLabel("Size value 3").fill("M");
  // Values are put in order: L goes last.
  await section.getByRole("button", { name: "Move L down" }).click();
  await section.getByRole("button", { name: "Move L down" }).click();
  await expect(section.getByLabel("Size value 1")).toHaveValue("S");
  await expect(section.getByLabel("Size value 3")).toHaveValue("L");

  // A value given twice is refused beside it, and nothing is saved.
  await section.getByLabel("Size value 2").fill("s");
  await section.getByRole("button", { name: "Generate variants" }).click();
  await expect(section.getByText("“s” is listed twice under Size.")).toBeVisible();
  await section.getByLabel("Size value 2").fill("M");
  await section.getByRole("button", { name: "Generate variants" }).click();
  await expect(page.getByTestId("toast")).toContainText("Options saved and variants generated");

  const table = section.getByRole("table");
  const labels = ["Red / S", "Red / M", "Red / L", "Blue / S", "Blue / M", "Blue / L"];
  await expect(table.getByRole("rowheader")).toHaveText(labels);

  // Bulk: ₹450 and 5 in stock for all; then Red / S cheaper, Blue / L sold out.
  await section.getByLabel("Price for many (₹)").fill("450");
  await section.getByLabel("Stock for many").fill("5");
  await section.getByRole("button", { name: "Apply to all" }).click();
  await expect(section.getByLabel("Price of Blue / M", { exact: true })).toHaveValue("450");
  await section.getByLabel("Price of Red / S", { exact: true }).fill("399");
  await section.getByLabel("Original price of Red / S").fill("350");
  await section.getByLabel("Stock of Blue / L", { exact: true }).fill("0");
  await section.getByLabel("SKU of Red / S", { exact: true }).fill("VD-RED-S");
  await section.getByRole("button", { name: "Save variants" }).click();
  // The original price must cover the price: refused beside its row, nothing saved.
  await expect(
    table.getByText("The original price must be at least the price.").first(),
  ).toBeVisible();
  await section.getByLabel("Original price of Red / S").fill("549");
  await section.getByRole("button", { name: "Save variants" }).click();
  await expect(page.getByTestId("toast")).toContainText("Variants saved");
  await expect(section.getByLabel("Price of Red / S", { exact: true })).toHaveValue("399.00");
  await expect(section.getByLabel("Stock of Blue / L", { exact: true })).toHaveValue("0");
  await expect(section.getByText("No unsaved changes.")).toBeVisible();

  // The item form above shows the variants' price and stock, read-only, and sends them to the
  // table (its own price and stock fields were overwritten by the next variant save).
  await page.reload();
  const summary = page.getByTestId("variant-price-stock");
  await expect(summary).toContainText("From ₹399.00 · 25 in stock across its variants");
  await expect(page.getByLabel(/^Price \(₹\)/)).toHaveCount(0);
  await expect(page.getByLabel("Stock count")).toHaveCount(0);
  await expect(summary.getByRole("link", { name: "Options and variants" })).toHaveAttribute(
    "href",
    "#variants-heading",
  );

  // In the shop, the card shows the lowest variant price as "from ₹X" (the prices differ).
  await page.goto("/products");
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card).toContainText("from ₹399.00");

  // The low-stock filter finds it (Blue / L is at 0, the others at 5).
  await page.goto(`/admin/items?stock=low&q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();

  // CSV: one row per variant; imported again, nothing changes.
  const exported = await exportedRows(page, productId);
  expect(exported).toHaveLength(7);
  expect(exported[0]).toContain("Option1 Name,Option1 Value,Option2 Name,Option2 Value");
  expect(exported[1]).toContain("Colour,Red,Size,S,,,VD-RED-S,399.00,549.00,5,true");
  await page.goto("/admin/import");
  await page.getByLabel("JSON or CSV file").setInputFiles({
    name: "variants.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${exported.join("\r\n")}\r\n`),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("import-summary")).toContainText("0 new, 1 updated");
  await page.getByRole("button", { name: /^Import 1 product/ }).click();
  await expect(page.getByTestId("toast")).toContainText("Import complete");
  expect(await exportedRows(page, productId)).toEqual(exported);
}

test.describe("the variant editor on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the page never scrolls sideways; the variant table scrolls in its own box and its controls can be used", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, demoAdmin);
    // A demo product with two options (Size × Finish, six variants).
    await page.goto(`/admin/items?q=${encodeURIComponent("Kiko the Ramen Ninja")}`);
    await page
      .getByRole("link", { name: /Kiko the Ramen Ninja/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/admin\/items\/[0-9a-f-]{36}$/);
    const section = page.locator("section", {
      has: page.getByRole("heading", { name: "Options and variants" }),
    });
    const table = section.getByRole("table");
    await expect(table).toBeVisible();
    await expectFitsViewport(page);
    // The table is wider than the phone: its own box scrolls, not the page.
    const box = table.locator("xpath=..");
    expect(
      await box.evaluate((el) => ({
        scrolls: el.scrollWidth > el.clientWidth,
        overflow: getComputedStyle(el).overflowX,
        fits: el.getBoundingClientRect().right <= window.innerWidth,
      })),
    ).toEqual({ scrolls: true, overflow: "auto", fits: true });
    // Every control of the options and of the table can be reached and used: the last row's
    // stock field scrolls into view inside the box and takes a value, and the buttons sit within
    // the phone's width.
    const stocks = section.getByLabel(/^Stock of /);
    const last = stocks.last();
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport();
    const before = await last.inputValue();
    await last.fill("7");
    await expect(last).toHaveValue("7");
    await last.fill(before);
    for (const name of ["Add option", "Generate variants", "Save variants", "Apply to all"]) {
      const button = section.getByRole("button", { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport({ ratio: 1 });
    }
    await expectFitsViewport(page);
  });
});
