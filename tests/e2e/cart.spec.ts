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

const rupees = (paise: number) =>
  new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" }).format(paise / 100);

test.describe("cart", () => {
  test("is empty at first, with Continue Shopping", async ({ page }) => {
    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
    await page.getByRole("link", { name: "Continue Shopping" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("lines, quantities and the summary follow the rules to the paisa", async ({ page }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder"); // ₹349.00
    const fidget = await productByName(page, "Geared Spinner Fidget"); // ₹199.00
    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    // Seen in the badge before going on (a tap before hydration is made once it hydrates).
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await page.goto(`/product/${fidget}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await page.getByRole("link", { name: /^Cart/ }).click();
    await expect(page.getByRole("heading", { name: "Shopping Cart (2 items)" })).toBeVisible();

    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect(page.getByRole("heading", { name: "Shopping Cart (4 items)" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("4");

    // ₹1,246 is over the demo shop's free-shipping threshold (₹999).
    const subtotal = 3 * 34_900 + 19_900;
    const tax = Math.round(subtotal * 0.08);
    await expect(page.getByTestId("summary-subtotal")).toHaveText(rupees(subtotal));
    await expect(page.getByTestId("summary-shipping")).toHaveText("₹0.00");
    await expect(page.getByTestId("summary-tax")).toHaveText(rupees(tax));
    await expect(page.getByTestId("summary-total")).toHaveText(rupees(subtotal + tax));
    await expect(page.getByTestId("free-shipping-note")).toHaveCount(0);

    // One Lotus fewer: ₹897 is ₹102 short of it, and the fee comes back.
    await page.getByRole("button", { name: "Decrease quantity of Lotus Tealight Holder" }).click();
    const under = 2 * 34_900 + 19_900;
    await expect(page.getByTestId("summary-shipping")).toHaveText("₹9.99");
    await expect(page.getByTestId("summary-total")).toHaveText(
      rupees(under + 999 + Math.round(under * 0.08)),
    );
    await expect(page.getByTestId("free-shipping-note")).toHaveText(
      "Add ₹102.00 more for free shipping",
    );

    // Down to 0 removes the line.
    await page.getByRole("button", { name: "Decrease quantity of Geared Spinner Fidget" }).click();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    await page.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
  });

  test("shows the server's price, not the one the browser kept", async ({ page }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await page.goto("/");
    await page.evaluate((productId) => {
      localStorage.setItem(
        "lk_cart",
        JSON.stringify([
          {
            productId,
            name: "Lotus Tealight Holder",
            pricePaise: 1,
            image: null,
            category: "3D Prints",
            quantity: 1,
            addedAt: new Date().toISOString(),
          },
        ]),
      );
    }, lotus);
    await page.goto("/cart");
    await expect(page.getByTestId("summary-subtotal")).toHaveText("₹349.00");
  });

  test("a guest's Proceed to Checkout says 'Please sign in' and goes to /auth", async ({
    page,
  }) => {
    const fidget = await productByName(page, "Geared Spinner Fidget");
    await page.goto(`/product/${fidget}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await page.goto("/cart");
    await page.getByRole("button", { name: "Proceed to Checkout" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Please sign in" })).toBeVisible();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcart/);
  });

  test("a product with one left: the stepper, Add to Cart and the cart stop at one", async ({
    page,
  }) => {
    const cactus = await productByName(page, "Tiny Cactus Trio Planters");
    await page.goto(`/product/${cactus}`);
    await expect(page.getByRole("button", { name: "Increase quantity" })).toBeDisabled();
    const add = page.getByRole("button", { name: "Add to Cart", exact: true });
    await add.click();
    await expect(page.getByTestId("toast").filter({ hasText: "Added to cart" })).toBeVisible();
    await add.click();
    await expect(page.getByTestId("toast").filter({ hasText: "No more available" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    await page.goto("/cart");
    await expect(page.getByTestId("line-quantity")).toHaveText("1");
    await expect(
      page.getByRole("button", { name: "Increase quantity of Tiny Cactus Trio Planters" }),
    ).toBeDisabled();

    // A cart that holds more than is left (kept from before the stock fell) says so and can't
    // go on until lowered.
    await page.evaluate((id) => {
      const lines = JSON.parse(localStorage.getItem("lk_cart") ?? "[]") as Array<{
        productId: string;
        quantity: number;
      }>;
      for (const l of lines) if (l.productId === id) l.quantity = 3;
      localStorage.setItem("lk_cart", JSON.stringify(lines));
    }, cactus);
    await page.reload();
    await expect(page.getByText("Only 1 left: lower the quantity to check out.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Proceed to Checkout" })).toBeDisabled();
    await page
      .getByRole("button", { name: "Decrease quantity of Tiny Cactus Trio Planters" })
      .click();
    await page
      .getByRole("button", { name: "Decrease quantity of Tiny Cactus Trio Planters" })
      .click();
    await expect(page.getByRole("button", { name: "Proceed to Checkout" })).toBeEnabled();
  });
});
