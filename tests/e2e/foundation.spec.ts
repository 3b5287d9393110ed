import type { Page } from "@playwright/test";
import { expect, test, whenHydrated } from "./fixtures.ts";

/** r + g + b of the page's painted background (0 black … 765 white). */
async function pageBrightness(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return r + g + b;
  });
}

test.describe("shop shell", () => {
  test("the home page is rendered on the server with the seeded catalogue", async ({
    page,
    request,
  }) => {
    const res = await request.get("/");
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain("Latest Products");
    expect(html).toMatch(/<html[^>]*lang="en-IN"/);
    // Scripts run only with this response's nonce, or, served from the page cache, by the hashes of
    // the page's own inline scripts (tests/e2e/page-cache.spec.ts).
    expect(res.headers()["content-security-policy"]).toMatch(
      res.headers()["x-page-cache"] === "hit"
        ? /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/
        : /script-src 'self' 'nonce-[^']+' 'strict-dynamic';/,
    );

    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Latest Products" })).toBeVisible();
    await expect(page.getByRole("link", { name: "View All Products" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(["Custom Printing", "About Us", "Contact Us"]);
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("link", { name: /^Cart/ })).toBeVisible();
    await expect(
      page
        .getByRole("navigation", { name: "Legal" })
        .getByRole("link", { name: "Admin Dashboard" }),
    ).toBeVisible();
  });

  test("an unknown path answers 404 with 'Oops! Page not found' and Back/Home", async ({
    page,
    request,
  }) => {
    const res = await request.get("/no-such-page");
    expect(res.status()).toBe(404);
    expect(await res.text()).toContain("Oops! Page not found");

    await page.goto("/");
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/still-missing");
    await page.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("Back goes home when there is no previous page", async ({ page }) => {
    await page.goto("/nothing-here");
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("health and readiness checks answer 200", async ({ request }) => {
    expect((await request.get("/healthz")).status()).toBe(200);
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
  });

  test("the theme choice persists across reloads with no flash of the other theme", async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/system/);
    await page.getByRole("button", { name: /^Theme/ }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    // The page turns dark at once; the server's cookie comes with the choice's answer.
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === "lk_theme")?.value)
      .toBe("dark");

    // The server renders the stored choice, so the very first paint is already dark.
    const firstPaintBackgrounds: number[] = [];
    await page.exposeFunction("reportBackground", (sum: number) => firstPaintBackgrounds.push(sum));
    await page.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        // The page's background as the browser paints it, in sRGB whatever the CSS colour space.
        const canvas = document.createElement("canvas");
        canvas.width = 1;
        canvas.height = 1;
        const ctx = canvas.getContext("2d")!;
        ctx.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
        // @ts-expect-error exposed by the test
        window.reportBackground(r + g + b);
      });
    });
    const res = await page.reload();
    expect(await res?.text()).toMatch(/<html[^>]*class="dark"/);
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect.poll(() => firstPaintBackgrounds.length).toBeGreaterThan(0);
    expect(firstPaintBackgrounds[0]).toBeLessThan(200);

    await page.getByRole("button", { name: /^Theme/ }).click();
    await page.getByRole("menuitemradio", { name: "Light" }).click();
    await expect(page.locator("html")).toHaveClass(/light/);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/light/);
  });

  test("the system theme follows the device's colour scheme", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/system/);
    expect(await pageBrightness(page)).toBeLessThan(200);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await pageBrightness(page)).toBeGreaterThan(600);
  });

  test("the header's menus download on first use and open from the keyboard as from the pointer", async ({
    page,
  }) => {
    const menuScripts: string[] = [];
    page.on("request", (r) => {
      if (/\/(theme-menu|dropdown-menu|toast-region)-[\w-]+\.js$/.test(r.url())) {
        menuScripts.push(r.url());
      }
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    // DESIGN.md decision 10: a first visit doesn't download the menus' or the toasts' code.
    expect(menuScripts).toEqual([]);
    const trigger = page.getByRole("button", { name: /^Theme/ });
    await expect(trigger).toHaveAttribute("aria-haspopup", "menu");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    // Enter before the code is there: the menu opens once it arrives, its first item focused.
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitemradio").first()).toBeFocused();
    expect(menuScripts.some((u) => u.includes("theme-menu"))).toBe(true);
    // The open menu is modal: the rest of the page, its button too, is hidden from the tree.
    await expect(page.getByRole("button", { name: /^Theme/, includeHidden: true })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    // Escape closes it and gives the focus back to its button; the loaded menu stays.
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: /^Theme/ })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitemradio").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Theme/ }).click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitemradio")).toHaveText(["Light", "Dark", "System"]);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  });

  test("the mobile menu opens and closes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link")).toHaveText(["Custom Printing", "About Us", "Contact Us"]);
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
    // Escape closes it too, from inside the menu, and hands focus back to the toggle.
    await toggle.click();
    await menu.getByRole("link", { name: "About Us" }).focus();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });

  test("navigating scrolls to the top and shows the loading overlay", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const policies = page.getByRole("navigation", { name: "Help" }).getByRole("link", {
      name: "Policies",
    });
    // The overlay is the page's own navigation. Followed before the page has hydrated (its
    // scripts start after the first paint, decision 0032), the link is the browser's: a whole
    // page load, also at the top, with no overlay to see.
    await whenHydrated(policies);
    await policies.click();
    await expect(page.getByTestId("route-overlay")).toBeVisible();
    await expect(page.getByTestId("route-overlay")).toBeHidden();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe("test fixtures", () => {
  test("a verified customer is created through the shop's e-mail and signed in", async ({
    page,
    login,
  }) => {
    const user = await login();
    await page.goto("/");
    await expect(page.getByRole("button", { name: `Account: ${user.name}` })).toBeVisible();
  });
});
