import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

async function productByName(page: Page, name: string) {
  const res = await page.request.get(`/api/search?q=${encodeURIComponent(name)}`);
  const { suggestions } = (await res.json()) as {
    suggestions: Array<{ id: string; name: string }>;
  };
  const hit = suggestions.find((s) => s.name === name);
  if (!hit) throw new Error(`no product ${name}`);
  return hit.id;
}

test.describe("favourites", () => {
  test("a visitor is asked to sign in, on the page and at the heart", async ({ page }) => {
    await page.goto("/favourites");
    await expect(page.getByText("Please sign in to see your favourited items.")).toBeVisible();
    await expect(
      page.getByRole("main").getByRole("link", { name: "Sign In", exact: true }),
    ).toHaveAttribute("href", "/auth?redirectTo=%2Ffavourites");

    const lotus = await productByName(page, "Lotus Tealight Holder");
    await page.goto(`/product/${lotus}`);
    await page
      .getByRole("button", { name: "Add Lotus Tealight Holder to favourites", exact: true })
      .click();
    const toast = page.getByTestId("toast").filter({ hasText: "Sign in required" });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("Please sign in to save favourites.");
  });

  test("a customer's hearts fill the list; removing the last empties it", async ({
    page,
    login,
  }) => {
    await login();
    await page.goto("/favourites");
    await expect(page.getByText("No favourites yet.")).toBeVisible();

    const lotus = await productByName(page, "Lotus Tealight Holder");
    await page.goto(`/product/${lotus}`);
    const heart = page.getByRole("button", {
      name: "Add Lotus Tealight Holder to favourites",
      exact: true,
    });
    await heart.click();
    await expect(
      page.getByTestId("toast").filter({ hasText: "Added to favourites" }),
    ).toBeVisible();
    await expect(
      page.getByRole("button", {
        name: "Remove Lotus Tealight Holder from favourites",
        exact: true,
      }),
    ).toHaveAttribute("aria-pressed", "true");

    await page.goto("/favourites");
    const card = page.getByTestId("favourite");
    await expect(card).toHaveCount(1);
    await expect(card.getByRole("heading", { name: "Lotus Tealight Holder" })).toBeVisible();
    await expect(card).toContainText("3D Prints");

    // The image links to the product.
    await card.getByRole("link", { name: "Lotus Tealight Holder" }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${lotus}$`));

    await page.goto("/favourites");
    await page
      .getByRole("button", { name: "Remove Lotus Tealight Holder from favourites", exact: true })
      .click();
    await expect(
      page.getByTestId("toast").filter({ hasText: "Removed from favourites" }),
    ).toBeVisible();
    // The card goes at once (it once stayed until a reload), and focus is not lost.
    await expect(card).toHaveCount(0);
    await expect(page.getByText("No favourites yet.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Favourites", level: 1 })).toBeFocused();
    await page.reload();
    await expect(page.getByText("No favourites yet.")).toBeVisible();
  });
});
