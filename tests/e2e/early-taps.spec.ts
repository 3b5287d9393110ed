import { box as boxMesh, toBinaryStl } from "../../app/rules/model3d/testing/shapes.ts";
import { expect, holdHydration, productId, test } from "./fixtures.ts";

/*
 * A tap made before the page hydrates (decision 0031): on a phone the buttons show a second or
 * more before the scripts have run. The tap is kept and made again once the page can handle it,
 * once however often it was repeated (but every tap of a quantity stepper counts). The scripts
 * are held back here so every tap below lands before hydration.
 */

test("Show password tapped before the page hydrates shows it once the page can", async ({
  page,
}) => {
  const release = await holdHydration(page);
  await page.goto("/auth", { waitUntil: "domcontentloaded" });
  const panel = page.getByRole("tabpanel", { name: "Login" });
  const password = panel.getByLabel("Password", { exact: true });
  await panel.getByRole("button", { name: "Show password" }).click();
  // Not yet: nothing on the page can act on it.
  await expect(password).toHaveAttribute("type", "password");
  release();
  await expect(password).toHaveAttribute("type", "text");
  // And only once: tapping Hide now works as usual.
  await panel.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");
});

test("the Register tab tapped before the page hydrates opens once the page can (tabs change on the press, not the click)", async ({
  page,
}) => {
  const release = await holdHydration(page);
  await page.goto("/auth", { waitUntil: "domcontentloaded" });
  await page.getByRole("tab", { name: "Register" }).click();
  await expect(page.getByRole("tabpanel", { name: "Login" })).toBeVisible();
  release();
  const register = page.getByRole("tabpanel", { name: "Register" });
  await expect(register.getByLabel("First name")).toBeVisible();
  await expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});

test("Add to Cart tapped twice before hydration adds one; the badge counts it once the page hydrates", async ({
  page,
}) => {
  const id = await productId(page, "Lotus Tealight Holder");
  const release = await holdHydration(page);
  await page.goto(`/product/${id}`, { waitUntil: "domcontentloaded" });
  const add = page.getByRole("button", { name: "Add to Cart", exact: true });
  await add.click();
  await add.click();
  await expect(page.getByTestId("cart-count")).toHaveCount(0);
  release();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.goto("/cart");
  await expect(page.getByRole("heading", { name: "Shopping Cart (1 item)" })).toBeVisible();
});

test("a sign-in typed and sent before hydration signs in once the page hydrates (the form isn't sent twice)", async ({
  page,
  newUser,
}) => {
  const release = await holdHydration(page);
  await page.goto("/auth", { waitUntil: "domcontentloaded" });
  const panel = page.getByRole("tabpanel", { name: "Login" });
  await panel.getByLabel("Email").fill(newUser.email);
  await panel.getByLabel("Password", { exact: true }).fill(newUser.password);
  await panel.getByRole("button", { name: "Sign In" }).click();
  // The browser didn't send the form on its own: the page is still the sign-in page.
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(panel.getByLabel("Email")).toHaveValue(newUser.email);
  release();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveCount(0);
});

test("a search typed before the page hydrates is kept, and its suggestions come once the page can", async ({
  page,
}) => {
  // React sets a field it controls back to its own value when it hydrates: the text came back
  // empty, and no suggestions came.
  const release = await holdHydration(page);
  await page.goto("/", { waitUntil: "domcontentloaded" });
  const box = page.getByRole("combobox", { name: "Search products" }).first();
  await box.fill("dargon");
  release();
  const suggestions = page.getByRole("listbox", { name: "Suggestions" });
  await expect(suggestions.getByRole("option").first()).toContainText(/Dragon/);
  await expect(box).toHaveValue("dargon");
});

test("the cart link tapped while Add to Cart waits for the page opens the cart with the lamp in it", async ({
  page,
}) => {
  // Followed at once, the link took the customer away before the tap could act: the cart was
  // empty.
  const id = await productId(page, "Lotus Tealight Holder");
  const release = await holdHydration(page);
  await page.goto(`/product/${id}`, { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await page.getByRole("link", { name: /^Cart/ }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${id}$`));
  release();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("heading", { name: "Shopping Cart (1 item)" })).toBeVisible();
});

test("the quantity stepper tapped before hydration counts every tap; Add to Cart adds that many", async ({
  page,
}) => {
  // Noted once, Increase tapped twice added one more; made in one go, Add to Cart read the
  // quantity before React had shown the Increase.
  const id = await productId(page, "Lotus Tealight Holder");
  const release = await holdHydration(page);
  await page.goto(`/product/${id}`, { waitUntil: "domcontentloaded" });
  const increase = page.getByRole("button", { name: "Increase quantity" });
  await increase.click();
  await increase.click();
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  release();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await expect(page.getByRole("group", { name: "Quantity" }).locator("output")).toHaveText("3");
});

test("a tap while the page hydrates comes after the taps made before it: Increase, then Add to Cart, adds two", async ({
  page,
}) => {
  // Increase noted before hydration; Add to Cart tapped once React has begun hydrating but before
  // it has reached the button (the phone's CPU slowed, so hydration takes long enough to tap in).
  // React would handle that tap at once, before the noted Increase was made: one lamp, not two.
  const id = await productId(page, "Lotus Tealight Holder");
  // What React had made of Add to Cart when the tap's press reached the page (before any of the
  // page's own listeners; React hydrates a part as it is pressed): recorded from the start.
  await page.addInitScript(() => {
    window.addEventListener(
      "pointerdown",
      (event) => {
        const button = (event.target as Element).closest("button");
        if (button?.textContent?.trim() !== "Add to Cart") return;
        (window as unknown as { addTappedHydrated: boolean }).addTappedHydrated = Object.keys(
          button,
        ).some((key) => key.startsWith("__reactProps"));
      },
      true,
    );
  });
  const release = await holdHydration(page);
  await page.goto(`/product/${id}`, { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Increase quantity" }).click();
  // Where Add to Cart is, so the tap below goes at once, without Playwright's checks first.
  const box = await page.getByRole("button", { name: "Add to Cart", exact: true }).boundingBox();
  if (!box) throw new Error("Add to Cart isn't shown");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
  release();
  // React has taken the document (its root is on it): hydration has begun.
  await page.waitForFunction(
    () => Object.keys(document).some((key) => key.startsWith("__reactContainer")),
    undefined,
    { polling: 5 },
  );
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  // The tap came while React was hydrating, before it had reached the button.
  expect(
    await page.evaluate(
      () => (window as unknown as { addTappedHydrated?: boolean }).addTappedHydrated,
    ),
  ).toBe(false);
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await expect(page.getByRole("group", { name: "Quantity" }).locator("output")).toHaveText("2");
});

test("a model file picked before the quote page hydrates is read once it can", async ({ page }) => {
  const release = await holdHydration(page);
  await page.goto("/custom-printing", { waitUntil: "domcontentloaded" });
  await page.locator("#model-file").setInputFiles({
    name: "bracket.stl",
    mimeType: "model/stl",
    buffer: Buffer.from(toBinaryStl(boxMesh(12.7, 9.5, 3))),
  });
  release();
  await expect(page.getByTestId("model-size")).toHaveText("12.7 × 9.5 × 3.0 mm");
  await expect(page.getByTestId("model-file-name")).toHaveText("bracket.stl");
});
