import type { Page, Response } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/*
 * Decision 0026: a signed-in customer's /products and product page come from the visitors' page
 * cache, personalised on the server. The customer sees their name and filled hearts at first
 * paint, the page hydrates without a mismatch or an error, and everything they do afterwards
 * (a heart, the cart, signing out) works as on a rendered page.
 */

/** Loads a page until the server answers it from the cache, personalised (the first load of a
 * page renders it in full and has the visitors' page rendered in the background). */
async function personalPage(
  page: Page,
  path: string,
): Promise<{ response: Response; html: string }> {
  for (let i = 0; i < 20; i++) {
    const response = await page.goto(path);
    if (!response) throw new Error(`no response for ${path}`);
    if (response.headers()["x-page-cache"] === "personal") {
      return { response, html: await response.text() };
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`${path} was never served personalised`);
}

test("a signed-in customer's pages from the cache: name and hearts at first paint, then as usual", async ({
  page,
  login,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  test.setTimeout(240_000);
  const user = await login();
  // A product on the first page of /products (newest first), as its heart names it.
  const visitorListing = await (await page.request.get("/products")).text();
  const card = [
    ...visitorListing.matchAll(
      /aria-label="Add ([^"&<]+) to favourites" data-favourite-id="([0-9a-f-]{36})"/g,
    ),
  ][0];
  if (!card) throw new Error("no heart on /products");
  const [, name, id] = card as unknown as [string, string, string];
  const added = await page.request.post("/api/favourites", {
    form: { intent: "add", productId: id },
  });
  expect(added.ok()).toBe(true);

  const listing = await personalPage(page, "/products");
  // In the HTML as sent: the name and the filled heart are there before any script runs.
  expect(listing.html).toContain(`aria-label="Account: ${user.name}"`);
  expect(listing.html).toContain(
    `aria-pressed="true" aria-label="Remove ${name} from favourites" data-favourite-id="${id}"`,
  );
  await expect(page.getByRole("button", { name: `Account: ${user.name}` })).toBeVisible();

  const product = await personalPage(page, `/product/${id}`);
  expect(product.html).toContain(`aria-label="Account: ${user.name}"`);
  const heart = page
    .getByRole("main")
    .getByRole("button", { name: `Remove ${name} from favourites`, exact: true })
    .first();
  await expect(heart).toHaveAttribute("aria-pressed", "true");

  // Hydrated with the customer's data: the heart knows it is a favourite and takes it away.
  await heart.click();
  await expect(
    page.getByTestId("toast").filter({ hasText: "Removed from favourites" }),
  ).toBeVisible();
  await expect(
    page
      .getByRole("main")
      .getByRole("button", { name: `Add ${name} to favourites`, exact: true })
      .first(),
  ).toHaveAttribute("aria-pressed", "false");

  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  // The account menu works as on a rendered page, and signing out shows the visitor's header.
  await page.getByRole("button", { name: `Account: ${user.name}` }).click();
  const menu = page.getByRole("menu");
  await expect(menu).toContainText(user.email);
  await menu.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(page.getByTestId("toast")).toContainText("Signed out");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/products");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Account: ${user.name}` })).toHaveCount(0);

  // No hydration mismatch, no error.
  expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
});
