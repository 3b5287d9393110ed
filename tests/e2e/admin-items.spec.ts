import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import sharp from "sharp";
import { e2eDataDir, expect, signIn, test } from "./fixtures.ts";

/*
 * The admin's catalogue (SPEC.md §2 Admin screens, §5): adding a product with images uploaded
 * with progress, finding it in the shop, editing it, and cancelling an upload with 'Leave now'
 * (checked on disk: local storage keeps files in $DATA_DIR/uploads).
 */

const demoAdmin = { email: "admin@example.com", password: "demo-admin-password" };
const UPLOADS = "**/api/admin/uploads";

async function pngFile(name: string, color: string) {
  const buffer = await sharp({
    create: { width: 120, height: 120, channels: 3, background: color },
  })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** Files stored for a product (the image and its variants), straight from the data folder. */
async function filesOf(productId: string): Promise<string[]> {
  try {
    return await readdir(path.join(e2eDataDir, "uploads", "products", productId));
  } catch {
    return [];
  }
}

/** Holds upload requests for `ms` before they reach the server (a slow connection). */
async function slowUploads(page: Page, ms: number) {
  await page.route(UPLOADS, async (route: Route) => {
    if (route.request().method() !== "POST") return route.continue();
    await new Promise((r) => setTimeout(r, ms));
    // The page may have aborted the request meanwhile ('Leave now'): then there is nothing to send.
    await route.continue().catch(() => undefined);
  });
}

function addItemForm(page: Page) {
  return page.locator("section", { has: page.getByRole("heading", { name: "Add item" }) });
}

async function newProductId(page: Page) {
  const input = addItemForm(page).locator('input[name="productId"]');
  await expect(input).toHaveValue(/^[0-9a-f-]{36}$/);
  return input.inputValue();
}

test.describe("admin items", () => {
  test("the demo admin adds a product with two images, finds it in the shop, and edits it", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, demoAdmin);
    await page.goto("/admin/items");
    await expect(page.getByRole("heading", { name: "Items", level: 1 })).toBeVisible();
    const form = addItemForm(page);
    const productId = await newProductId(page);
    const name = `Lotus Glow Lamp ${Date.now()}`;

    const categoryText = "Current category is not valid (NA). Please select or add a category.";
    // An untouched form shows no error (the category text once did, as if one had been made).
    await expect(form.getByText(categoryText)).toHaveCount(0);
    await form.getByRole("button", { name: "Add item" }).click();
    const nameField = form.getByLabel("Product name");
    const description = form.getByLabel(/^Description/);
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(description).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText(categoryText)).toBeVisible();

    // Each error goes as soon as its field is put right; the others stay until they are.
    await nameField.fill(name);
    await expect(nameField).not.toHaveAttribute("aria-invalid", "true");
    await expect(description).toHaveAttribute("aria-invalid", "true");
    const price = form.getByLabel(/^Price/);
    await price.pressSequentially("₹1,299.999");
    await expect(price).toHaveValue("1299.99");
    await expect(price).not.toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText(categoryText)).toBeVisible();
    await form.getByLabel(/^Category/).selectOption("3D Prints");
    await expect(form.getByText(/Current category is not valid/)).toHaveCount(0);
    await description.fill("A lotus lamp printed in translucent PLA.");
    await expect(description).not.toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("Discount (%)").pressSequentially("150");
    await expect(form.getByLabel("Discount (%)")).toHaveValue("100");
    await form.getByLabel("Discount (%)").fill("10");
    await form.getByLabel("Features").fill("Hand-finished\nMaterial: PLA");

    // Uploads go one after another, each with its own progress bar.
    await slowUploads(page, 600);
    await form
      .getByLabel("Add images")
      .setInputFiles([
        await pngFile("lotus-front.png", "#e11d48"),
        await pngFile("lotus-side.png", "#2563eb"),
      ]);
    const first = form.getByRole("progressbar", { name: "Upload of lotus-front.png" });
    const second = form.getByRole("progressbar", { name: "Upload of lotus-side.png" });
    await expect(first).toBeVisible();
    await expect(second).toBeVisible();
    await expect(form.getByText("Uploaded (not saved yet)")).toHaveCount(2, { timeout: 20_000 });
    await expect(first).toHaveAttribute("aria-valuenow", "100");
    await expect(second).toHaveAttribute("aria-valuenow", "100");
    await page.unroute(UPLOADS);

    await form.getByRole("button", { name: "Add item" }).click();
    await expect(page.getByTestId("toast")).toContainText("Product created");
    // Two images, each with its variants, in the product's folder.
    const stored = (await filesOf(productId)).filter((f) =>
      /^\d+_lotus-(front|side)\.webp$/.test(f),
    );
    expect(stored).toHaveLength(2);
    // The form starts again for the next product.
    await expect(form.getByLabel("Product name")).toHaveValue("");

    // In the shop: newest first on /products, and its own page with both images.
    await page.goto("/products");
    const card = page.getByRole("article").filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card).toContainText("₹1,299.99");
    await card.getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${productId}$`));
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByRole("img", { name: `${name}, image 1 of 2` })).toBeVisible();
    await expect(page.getByText("Material")).toBeVisible();

    // The grid finds it by name and opens the edit screen.
    await page.goto("/admin/items");
    await page.getByRole("searchbox", { name: "Search products by name" }).fill(name.slice(0, 16));
    await expect(page).toHaveURL(/q=Lotus/);
    await page.getByRole("link", { name: new RegExp(name) }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/items/${productId}$`));
    await expect(page.getByRole("heading", { name: "Edit item" })).toBeVisible();

    // An invalid price is refused with the spec's toast.
    const editPrice = page.getByLabel(/^Price/);
    await expect(editPrice).toHaveValue("1299.99");
    await editPrice.fill("0");
    await page.getByRole("button", { name: "Save changes" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Invalid price");
    await expect(toast).toContainText("Price must be a positive number.");

    // 'Will delete' toggles back; then the image is deleted on save, with the files.
    await page.getByRole("button", { name: "Delete image 1" }).click();
    await expect(page.getByText("Will delete")).toBeVisible();
    await page.getByRole("button", { name: "Keep image 1" }).click();
    await expect(page.getByText("Will delete")).toHaveCount(0);
    await page.getByRole("button", { name: "Delete image 1" }).click();
    await editPrice.fill("1499");
    // Taken out of the shop again, so the storefront journeys keep their demo catalogue.
    await page.getByLabel("Active (shown in the shop)").uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("toast")).toContainText("Changes saved");
    await expect(page.getByRole("button", { name: "Delete image 2" })).toHaveCount(0);
    await expect(page.getByLabel(/^Price/)).toHaveValue("1499.00");
    await expect
      .poll(async () => (await filesOf(productId)).filter((f) => f.includes("lotus-front")))
      .toEqual([]);
    expect((await filesOf(productId)).some((f) => f.includes("lotus-side"))).toBe(true);
  });

  test("'Leave now' during an upload deletes what was uploaded and saves nothing", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, demoAdmin);
    await page.goto("/admin/items");
    const form = addItemForm(page);
    const productId = await newProductId(page);
    await form.getByLabel("Product name").fill("Never Saved Vase");

    await form.getByLabel("Add images").setInputFiles([await pngFile("first.png", "#16a34a")]);
    await expect(form.getByText("Uploaded (not saved yet)")).toBeVisible();
    expect((await filesOf(productId)).length).toBeGreaterThan(0);

    // In-app navigation with an unsaved upload asks first.
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Dashboard" })
      .click();
    const confirm = page.getByRole("alertdialog", { name: "Leave without saving?" });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Stay" }).click();
    await expect(page).toHaveURL(/\/admin\/items$/);
    // Leaving the page itself raises the browser's leave warning (answered: stay).
    const warning = new Promise<string>((resolve) => {
      page.once("dialog", async (dialog) => {
        resolve(dialog.type());
        await dialog.dismiss();
      });
    });
    await page.evaluate(() => {
      window.location.href = "/admin";
    });
    expect(await warning).toBe("beforeunload");
    await expect(page).toHaveURL(/\/admin\/items$/);
    await expect(form.getByText("Uploaded (not saved yet)")).toBeVisible();

    // The second file is still on its way when the admin gives up.
    await slowUploads(page, 8_000);
    await form.getByLabel("Add images").setInputFiles([await pngFile("second.png", "#9333ea")]);
    await expect(form.getByRole("progressbar", { name: "Upload of second.png" })).toBeVisible();
    await expect(form.getByText(/^Uploading/)).toBeVisible();
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Leave now" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Upload cancelled");
    await expect(toast).toContainText("No changes were saved.");
    await expect(form.getByRole("progressbar")).toHaveCount(0);

    // Nothing left on disk, not even after the held request's time is up.
    await expect.poll(() => filesOf(productId)).toEqual([]);
    await page.waitForTimeout(9_000);
    expect(await filesOf(productId)).toEqual([]);
    // And no product was saved.
    const res = await page.request.get(`/admin/items/${productId}`);
    expect(res.status()).toBe(404);
  });
});
