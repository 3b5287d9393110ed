import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures.ts";

const shopOrigin = `http://localhost:${process.env.E2E_PORT ?? 3100}`;

async function productByName(page: Page, name: string) {
  const res = await page.request.get(`/api/search?q=${encodeURIComponent(name)}`);
  const { suggestions } = (await res.json()) as {
    suggestions: Array<{ id: string; name: string }>;
  };
  const hit = suggestions.find((s) => s.name === name);
  if (!hit) throw new Error(`no product ${name}`);
  return hit.id;
}

/** The signed-in account's stored cart as productId → quantity. */
async function storedCart(page: Page) {
  const res = await page.request.get("/api/cart");
  expect(res.status()).toBe(200);
  const { lines } = (await res.json()) as { lines: Array<{ productId: string; quantity: number }> };
  return Object.fromEntries(lines.map((l) => [l.productId, l.quantity]));
}

/**
 * Clicks Add to Cart on the product page `page` shows while its save to the stored cart never
 * reaches the shop (as when a page load cuts the request off, or the network is gone).
 */
async function addWithSaveCutOff(page: Page) {
  await page.route("**/api/cart", (route) =>
    route.request().method() === "POST" ? route.abort("aborted") : route.fallback(),
  );
  const cutOff = page.waitForEvent("requestfailed", (r) => r.url().endsWith("/api/cart"));
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await cutOff;
  await page.unroute("**/api/cart");
}

const quantityOf = (page: Page, name: string) =>
  page.getByTestId("cart-line").filter({ hasText: name }).getByTestId("line-quantity");

test.describe("cart sync", () => {
  test("signing in merges the guest's cart with the stored one, keeping the larger quantities", async ({
    page,
    login,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    const fidget = await productByName(page, "Geared Spinner Fidget");

    // An account whose stored cart holds 1 lotus and 3 fidgets; then the browser signs out.
    const user = await login();
    const saved = await page.request.post("/api/cart", {
      form: {
        intent: "set-all",
        lines: JSON.stringify([
          { productId: lotus, quantity: 1 },
          { productId: fidget, quantity: 3 },
        ]),
      },
      headers: { origin: shopOrigin },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const out = await page.request.post("/sign-out", {
      headers: { origin: shopOrigin },
      maxRedirects: 0,
    });
    expect(out.status()).toBe(302);
    expect((await page.request.get("/api/cart")).status()).toBe(401);

    // As a guest: 2 lotus and 1 fidget.
    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    // Seen in the badge before going on (a tap before hydration is made once it hydrates).
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    await page.goto(`/product/${fidget}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("3");

    // Sign in through the form.
    await page.goto("/auth?redirectTo=%2Fcart");
    await page.getByRole("tab", { name: "Login" }).click();
    const form = page.getByRole("tabpanel", { name: "Login" });
    await form.getByLabel("Email").fill(user.email);
    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/cart$/);

    // The larger quantity of each: 2 lotus (local) and 3 fidgets (stored).
    await expect(page.getByRole("heading", { name: "Shopping Cart (5 items)" })).toBeVisible();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
    await expect(quantityOf(page, "Geared Spinner Fidget")).toHaveText("3");
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2, [fidget]: 3 });

    // Afterwards each change reaches the stored cart.
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 3, [fidget]: 3 });
    await page.getByRole("button", { name: "Remove" }).last().click();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 3 });

    // A reload doesn't merge again or lose anything.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Shopping Cart (3 items)" })).toBeVisible();

    // Signing out clears this browser's cart; the stored one stays for the next sign-in.
    const bye = await page.request.post("/sign-out", {
      headers: { origin: shopOrigin },
      maxRedirects: 0,
    });
    expect(bye.status()).toBe(302);
    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
  });

  test("signing in keeps the guest's cart when one of its lines is a product deleted since", async ({
    page,
    newUser,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    // The browser also still holds a product the shop has deleted since it was added.
    await page.evaluate(() => {
      const lines = JSON.parse(localStorage.getItem("lk_cart") ?? "[]") as Array<
        Record<string, unknown>
      >;
      lines.push({
        ...lines[0],
        productId: "00000000-0000-4000-8000-000000000000",
        name: "A lamp no longer sold",
      });
      localStorage.setItem("lk_cart", JSON.stringify(lines));
    });
    await signIn(page, newUser);
    await page.goto("/cart");
    // The lamp reaches the account; the gone product is left out (it was refused whole before).
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1 });
    await page.reload();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("1");
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
  });

  test("every cart request a page sends is finished: its answer is read, no request stays open", async ({
    page,
    login,
  }) => {
    // An answer left unread kept its request open in the browser for good (a page that never
    // finished loading, to Lighthouse and to anything waiting for the network to go quiet).
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await login();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    const open = new Map<string, string>();
    const sent: string[] = [];
    cdp.on("Network.requestWillBeSent", (e) => {
      if (!e.request.url.endsWith("/api/cart")) return;
      open.set(e.requestId, e.request.method);
      sent.push(e.request.method);
    });
    cdp.on("Network.loadingFinished", (e) => open.delete(e.requestId));
    cdp.on("Network.loadingFailed", (e) => open.delete(e.requestId));

    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1 });
    // The product page's requests end there (leaving the page would cut them off).
    await expect.poll(() => [...open.values()], { timeout: 5_000 }).toEqual([]);
    await page.goto("/cart");
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("1");
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2 });

    // The page sent its changes (POST) and read the stored cart (GET)…
    expect(sent).toContain("POST");
    expect(sent).toContain("GET");
    // …and each of those requests ended.
    await expect.poll(() => [...open.values()], { timeout: 5_000 }).toEqual([]);
  });

  test("two devices of one account: each shows the stored cart, neither overwrites the other", async ({
    page,
    login,
    browser,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    const fidget = await productByName(page, "Geared Spinner Fidget");
    const user = await login();
    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1 });

    // A phone signs in to the same account and sees the lamp.
    const phone = await browser.newContext({ baseURL: shopOrigin });
    const other = await phone.newPage();
    await signIn(other, user);
    // Its first page is the cart: while the stored cart is on its way, the page must not say the
    // cart is empty (a customer would add the lamp again).
    await other.addInitScript(() => {
      const w = window as unknown as { emptySeen?: boolean };
      new MutationObserver(() => {
        if (document.body?.textContent?.includes("Your Cart is Empty")) w.emptySeen = true;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await other.goto("/cart");
    await expect(quantityOf(other, "Lotus Tealight Holder")).toHaveText("1");
    expect(await other.evaluate(() => (window as { emptySeen?: boolean }).emptySeen ?? false)).toBe(
      false,
    );

    // The first device adds a spinner; the phone shows it on its next page load…
    await page.goto(`/product/${fidget}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1, [fidget]: 1 });
    await other.reload();
    await expect(quantityOf(other, "Geared Spinner Fidget")).toHaveText("1");
    // …and its own change adds to the stored cart instead of replacing it.
    await other.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2, [fidget]: 1 });
    await phone.close();

    // Back on the first device, the phone's change shows.
    await page.goto("/cart");
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
  });

  test("a change whose request never arrived is sent by the next page, not overwritten by the stored cart", async ({
    page,
    login,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await login();
    await page.goto(`/product/${lotus}`);
    await expect.poll(() => storedCart(page)).toEqual({});

    // The change's request never reaches the shop (cut off by a page load, or the network)…
    await addWithSaveCutOff(page);
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    expect(await storedCart(page)).toEqual({});

    // …and the next page sends it before it reads the stored cart, so the lamp stays.
    await page.goto("/cart");
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("1");
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1 });
    await page.reload();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("1");

    // A server error isn't an answer: the change waits for the next page too.
    await page.route("**/api/cart", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 503,
            contentType: "text/html",
            body: "<h1>Service Unavailable</h1>",
          })
        : route.fallback(),
    );
    const refused = page.waitForResponse(
      (r) => r.url().endsWith("/api/cart") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await refused;
    await page.unroute("**/api/cart");
    expect(await storedCart(page)).toEqual({ [lotus]: 1 });
    await page.reload();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2 });
  });

  test("a tab whose change failed doesn't undo a newer change made in another tab", async ({
    page,
    login,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await login();
    // This tab shows the cart, still empty.
    await page.goto("/cart");
    await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();

    // Another tab adds the lamp; its request fails, and the tab stays open.
    const other = await page.context().newPage();
    await other.goto(`/product/${lotus}`);
    await addWithSaveCutOff(other);

    // The cart tab shows the lamp (the browser's cart is shared) and raises it to two.
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("1");
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2 });

    // The other tab is shown again, and is back online: it sends what it has, and that is the
    // newer two, not one.
    const refreshed = other.waitForResponse(
      (r) => r.url().endsWith("/api/cart") && r.request().method() === "GET",
    );
    await other.evaluate(() => {
      window.dispatchEvent(new Event("online"));
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await refreshed;
    expect(await storedCart(page)).toEqual({ [lotus]: 2 });
    await other.close();
    await page.reload();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
    expect(await storedCart(page)).toEqual({ [lotus]: 2 });
  });

  test("a change left unsent under one account never reaches the next account signed in", async ({
    page,
    login,
    newUser,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await login();
    await page.goto(`/product/${lotus}`);
    await expect.poll(() => storedCart(page)).toEqual({});
    await addWithSaveCutOff(page);

    // Another tab signs out and in as someone else, without this page knowing.
    const other = await page.context().newPage();
    const out = await other.request.post("/sign-out", {
      headers: { origin: shopOrigin },
      maxRedirects: 0,
    });
    expect(out.status()).toBe(302);
    await signIn(other, newUser);
    await other.goto("/cart");
    // The first account's lamp is not the next account's.
    await expect(other.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();

    // This page, shown again, doesn't send the first account's change with the new session.
    const sent = page
      .waitForRequest((r) => r.url().endsWith("/api/cart"), { timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    expect(await sent, "the page sent or read the cart with another account's session").toBe(false);
    await other.reload();
    await expect(other.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
    expect(await storedCart(other)).toEqual({});
    await other.close();
  });

  test("offline, the cart and the search box keep the page; back online, the change is sent and the figures update", async ({
    page,
    login,
  }) => {
    const lotus = await productByName(page, "Lotus Tealight Holder");
    await login();
    await page.goto(`/product/${lotus}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 1 });
    await page.goto("/cart");
    const total = page.getByTestId("summary-total");
    await expect(page.getByTestId("summary-shipping-note")).toBeVisible();
    const oneLamp = await total.textContent();

    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Increase quantity of Lotus Tealight Holder" }).click();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
    await expect(page.getByTestId("summary-stale")).toHaveText(
      "We couldn't update prices and shipping. They update when you're back online.",
    );
    // The shop's own rules, without the server: two lamps at ₹349, the line still for sale.
    await expect(page.getByTestId("summary-subtotal")).toHaveText("₹698.00");
    await expect(page.getByText(/No longer available/)).toHaveCount(0);
    await expect(total).not.toHaveText(oneLamp!);
    // A code can't be checked offline: said so, not applied, and the field is usable again.
    await page.getByPlaceholder("Discount code").fill("DIWALI10");
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page.getByText("We couldn't check this code. Please try again.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Apply", exact: true })).toBeEnabled();
    // Checkout would read a stored cart without the second lamp: not yet.
    await page.getByRole("button", { name: "Proceed to Checkout" }).click();
    await expect(page.getByTestId("toast")).toContainText("Failed to save cart");
    await expect(page).toHaveURL(/\/cart$/);
    // Typing in the search box offline leaves the page as it was.
    const searched = page.waitForEvent("requestfailed", (r) => r.url().includes("/api/search"));
    await page.getByRole("combobox", { name: "Search products" }).fill("lotus");
    await searched;
    await expect(page.getByRole("heading", { name: /Shopping Cart/ })).toBeVisible();
    await expect(page.getByRole("option")).toHaveCount(0);
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");

    // Back online: the waiting change reaches the stored cart and the figures are the shop's.
    await page.context().setOffline(false);
    await expect.poll(() => storedCart(page)).toEqual({ [lotus]: 2 });
    await expect(page.getByTestId("summary-stale")).toHaveCount(0);
    await expect(page.getByTestId("summary-shipping-note")).toBeVisible();
    await expect(page.getByLabel(/Remove code/)).toHaveCount(0);
    await page.reload();
    await expect(quantityOf(page, "Lotus Tealight Holder")).toHaveText("2");
    await expect(page.getByTestId("summary-subtotal")).toHaveText("₹698.00");
  });
});
