import sharp from "sharp";
import { expect, signIn, test } from "./fixtures.ts";

/*
 * The admin's content screens in the browser: category staging (and the duplicate message),
 * the sponsored set driving the home carousel, and a new promotion in Special Offers.
 */

const admin = { email: "admin@example.com", password: "demo-admin-password" };

test.describe("admin content", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("category staging: suggestions, the duplicate message, the two lists, Confirm", async ({
    page,
  }) => {
    await page.goto("/admin/categories");
    await expect(page.getByRole("heading", { name: "Categories", level: 1 })).toBeVisible();
    const name = page.getByLabel("Category name");
    const addButton = page.getByRole("button", { name: "Add", exact: true });
    const toAdd = page.getByRole("list", { name: /^To add/ });
    const toDelete = page.getByRole("list", { name: /^To delete/ });

    // Empty (after trim): Add is disabled.
    await expect(addButton).toBeDisabled();
    await name.fill("   ");
    await expect(addButton).toBeDisabled();

    // Suggestions: existing categories matching what is typed.
    await name.fill("3d");
    const suggestions = page.getByRole("list", { name: "Matching categories" });
    await expect(suggestions.getByRole("button")).toHaveText(["3D Characters", "3D Prints"]);

    // An existing name (any case): Add disabled, and Enter gives the duplicate message.
    await name.fill("3d prints");
    await expect(addButton).toBeDisabled();
    await name.press("Enter");
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Already exists");
    await expect(toast).toContainText('Category "3d prints" is already present.');

    // A new name goes on the add list; the same name again (other case) is a duplicate.
    await name.fill("  Resin   Kits ");
    await expect(addButton).toBeEnabled();
    await addButton.click();
    await expect(toAdd.getByRole("listitem")).toHaveText([/Resin Kits/]);
    await expect(name).toHaveValue("");
    await name.fill("RESIN KITS");
    await expect(addButton).toBeDisabled();
    await name.press("Enter");
    await expect(toast).toContainText('Category "RESIN KITS" is already present.');

    // Deleting a name on the add list takes it off the add list.
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByText("Nothing to add.")).toBeVisible();

    // Deleting a category stages it; adding it back takes it off the delete list.
    await page.getByRole("button", { name: "Delete 3D Characters" }).click();
    await expect(toDelete.getByRole("listitem")).toHaveText([
      /3D Characters — used by \d+ product/,
    ]);
    await name.fill("3d characters");
    await expect(addButton).toBeEnabled();
    await addButton.click();
    await expect(page.getByText("Nothing to delete.")).toBeVisible();

    // Stage one of each and confirm: the dialog says products keep their category text.
    await name.fill("Resin Kits");
    await addButton.click();
    await page.getByRole("button", { name: "Delete 3D Characters" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Apply these changes?" });
    await expect(dialog).toContainText("Add Resin Kits. Delete 3D Characters.");
    await expect(dialog).toContainText(/still uses? a category you are deleting/);
    await dialog.getByRole("button", { name: "Apply changes" }).click();
    await expect(toast).toContainText("Categories updated");
    const all = page.getByTestId("category-row");
    await expect(all.filter({ hasText: "Resin Kits" })).toHaveCount(1);
    await expect(all.filter({ hasText: "3D Characters" })).toHaveCount(0);
    await expect(page.getByText("Nothing to add.")).toBeVisible();

    // The server agrees after a reload.
    await page.reload();
    await expect(all.filter({ hasText: "Resin Kits" })).toContainText("0 products");
    await expect(all.filter({ hasText: "3D Characters" })).toHaveCount(0);

    // Put the demo catalogue's categories back: later journeys (a discount for 3D Characters)
    // share this server's database.
    await name.fill("3D Characters");
    await addButton.click();
    await page.getByRole("button", { name: "Delete Resin Kits" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByRole("button", { name: "Apply changes" }).click();
    await expect(toast).toContainText("Categories updated");
    await page.reload();
    await expect(all.filter({ hasText: "3D Characters" })).toHaveCount(1);
    await expect(all.filter({ hasText: "Resin Kits" })).toHaveCount(0);
  });

  test("changing the sponsored set changes the home page carousel", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" }); // the carousel stays on its first slide
    await page.goto("/");
    const carousel = page.getByRole("region", { name: "Sponsored products" });
    await expect(carousel.getByRole("button", { name: /^Show slide 1: / })).toHaveAccessibleName(
      "Show slide 1: Lotus Tealight Holder",
    );
    await expect(carousel).not.toContainText("Spiral Ridge Bud Vase");

    await page.goto("/admin/sponsored-products");
    const list = page.getByTestId("sponsored-list");
    await expect(list.getByRole("listitem")).toHaveCount(4);
    await page.getByLabel("Search products by name").fill("spiral");
    await page.getByRole("button", { name: "Add Spiral Ridge Bud Vase" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(5);
    // Move it to the top, and take the tealight holder out.
    for (let i = 0; i < 4; i++) {
      await page.getByRole("button", { name: "Move Spiral Ridge Bud Vase up" }).click();
    }
    await expect(list.getByRole("listitem").first()).toContainText("Spiral Ridge Bud Vase");
    await page.getByRole("button", { name: "Remove Lotus Tealight Holder" }).click();
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("Sponsored products saved");
    await expect(page.getByText("Unsaved changes")).toHaveCount(0);

    await page.goto("/");
    const slides = page.getByTestId("carousel-slide");
    await expect(slides).toHaveCount(4);
    await expect(slides.first()).toBeVisible();
    await expect(slides.first().getByRole("heading")).toHaveText("Spiral Ridge Bud Vase");
    await expect(carousel).not.toContainText("Lotus Tealight Holder");
  });

  test("a new promotion appears in the home page's Special Offers", async ({ page }) => {
    const image = await sharp({
      create: { width: 400, height: 300, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    await page.goto("/admin/promotions");
    await page.getByRole("button", { name: "New promotion" }).click();
    const dialog = page.getByRole("dialog", { name: "New promotion" });
    await dialog.getByLabel("Name").fill("Monsoon Mega Sale");
    await dialog.getByLabel("Description").fill("Rainy-day planters and lamps, printed to order.");
    await dialog.getByLabel("Discount", { exact: true }).fill("30% OFF");
    await dialog.getByLabel("Button text").fill("Grab the deal");
    await dialog
      .getByLabel(/^Image/)
      .setInputFiles({ name: "monsoon.png", mimeType: "image/png", buffer: image });
    await dialog.getByRole("button", { name: "Create promotion" }).click();
    await expect(page.getByTestId("toast")).toContainText("Promotion created");
    await expect(dialog).toBeHidden();
    const card = page.getByTestId("admin-promotion").filter({ hasText: "Monsoon Mega Sale" });
    await expect(card).toContainText("30% OFF");
    await expect(card.locator("img")).toHaveAttribute(
      "src",
      /^\/uploads\/promotions\/\d+_monsoon\.webp$/,
    );

    await page.goto("/");
    const offers = page.getByRole("region", { name: "Special Offers" });
    const offer = offers.getByRole("listitem").first();
    await expect(offer).toContainText("Monsoon Mega Sale");
    await expect(offer).toContainText("30% OFF");
    await expect(offer).toContainText("Rainy-day planters and lamps");
    await expect(offer.locator("img")).toHaveAttribute("src", /^\/uploads\/promotions\//);
  });

  test("importing the old shop's JSON: preview lists the failure, Import adds the rest", async ({
    page,
  }) => {
    // The old shop's images are on another host (no network here: answered with a small PNG).
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: "#c05" },
    })
      .png()
      .toBuffer();
    await page.route("https://files.example/**", (route) =>
      route.fulfill({ contentType: "image/png", body: png }),
    );
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/admin/import");
    await page.getByLabel("JSON or CSV file").setInputFiles("tests/fixtures/legacy-products.json");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByTestId("import-summary")).toContainText(
      "To import: 6 products (6 new, 0 updated). 1 failure listed below will be skipped.",
    );
    await expect(page.getByTestId("import-failures")).toContainText("p-broken-05");
    await expect(page.getByTestId("import-failures")).toContainText("missing name");
    await page.getByRole("button", { name: "Import 6 products" }).click();
    await expect(page.getByTestId("toast")).toContainText("Import complete");
    await expect(page.getByTestId("import-summary")).toContainText(
      "Imported: 6 products (6 new, 0 updated).",
    );
    // The page fits a small phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    const csv = await page.request.get("/admin/products.csv");
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain("Articulated Dragon");

    // The imported product is in the shop (found by its search, opened on its page).
    const found = await page.request.get("/api/search?q=Articulated%20Dragon");
    const { suggestions } = (await found.json()) as {
      suggestions: Array<{ id: string; name: string }>;
    };
    const dragon = suggestions.find((x) => x.name === "Articulated Dragon");
    expect(dragon).toBeDefined();
    await page.goto(`/product/${dragon?.id}`);
    await expect(page.getByRole("heading", { name: "Articulated Dragon", level: 1 })).toBeVisible();
    // Its image, kept at the other host's address, is allowed by the page's policy and shows.
    const image = page.locator('img[src="https://files.example/dragon-1.jpg"]').first();
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(8);
  });
});
