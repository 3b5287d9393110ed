import { readdir } from "node:fs/promises";
import path from "node:path";
import { e2eDataDir, expect, productId, readEmail, test, whenHydrated } from "./fixtures.ts";

async function seededProductIdByKey(key: string): Promise<string> {
  const root = path.join(e2eDataDir, "uploads/products");
  for (const id of await readdir(root)) {
    if ((await readdir(path.join(root, id))).some((f) => f.includes(`_${key}-1.webp`))) return id;
  }
  throw new Error(`no seeded product ${key}`);
}

/** A seeded product's id, found through the shop's own search. */
test.describe("home", () => {
  test("shows the carousel, Why Us, Latest Products and Special Offers", async ({ page }) => {
    await page.goto("/");
    const carousel = page.getByRole("region", { name: "Sponsored products" });
    await expect(carousel).toBeVisible();
    await expect(page.getByRole("heading", { name: "Why Us ?" })).toBeVisible();
    for (const reason of ["Special Offer", "Special Gift", "Support 24x7", "Custom 3D Design"]) {
      await expect(page.getByText(reason, { exact: true })).toBeVisible();
    }
    const latest = page.getByRole("list", { name: "Latest Products" });
    await expect(latest.getByRole("listitem")).toHaveCount(8);
    await expect(page.getByRole("heading", { name: "Special Offers" })).toBeVisible();
    await page.getByRole("link", { name: "View All Products" }).click();
    await expect(page.getByRole("heading", { name: "Our Products", level: 1 })).toBeVisible();
  });

  test("the carousel advances every 5 seconds, by buttons and dots, and a slide opens its product", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto("/");
    const slides = page.getByTestId("carousel-slide");
    await expect(slides).toHaveCount(4);
    await expect(slides.nth(0)).toBeVisible();
    await page.clock.runFor(5_100);
    await expect(slides.nth(1)).toBeVisible();
    await expect(slides.nth(0)).toBeHidden();
    await page.getByRole("button", { name: "Next slide" }).click();
    await expect(slides.nth(2)).toBeVisible();
    await page.getByRole("button", { name: "Previous slide" }).click();
    await expect(slides.nth(1)).toBeVisible();
    await page.getByRole("button", { name: /^Show slide 4/ }).click();
    await expect(slides.nth(3)).toBeVisible();
    // Hovering pauses it.
    await slides.nth(3).hover();
    await page.clock.runFor(6_000);
    await expect(slides.nth(3)).toBeVisible();
    const name = await slides.nth(3).getByRole("heading").textContent();
    await slides.nth(3).getByRole("link").click();
    await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name!);
  });

  test("the interest dialog needs a name and stores the interest", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Shop Festive Decor" }).click();
    const dialog = page.getByRole("dialog", { name: "Diwali Festive Offer" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog.getByText("Name is required")).toBeVisible();
    await dialog.getByLabel("Name").fill("Asha Rao");
    await dialog.getByLabel("Phone (optional)").fill("+1 415 555 0100");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog.getByText("Please enter a valid 10-digit mobile number")).toBeVisible();
    await dialog.getByLabel("Phone (optional)").fill("+91 98765 43210");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await expect(dialog.getByText("Thank you! We will contact you shortly.")).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
    // Focus is back on the offer's button, where a keyboard user left it.
    await expect(page.getByRole("button", { name: "Shop Festive Decor" })).toBeFocused();
    // Cancel (or Escape) closes without sending.
    const bulk = page.getByRole("button", { name: "Request a Bulk Quote" });
    await bulk.click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(bulk).toBeFocused();
    await bulk.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(bulk).toBeFocused();
  });

  test("the newsletter box subscribes, and answers a second time the same (it never says who is subscribed)", async ({
    page,
  }) => {
    await page.goto("/");
    const box = page.getByRole("complementary", { name: "Get offers in your inbox" });
    await box.getByLabel("Email address").fill("not-an-email");
    await box.getByRole("button", { name: "Subscribe" }).click();
    await expect(box.getByText("Please enter a valid email address.")).toBeVisible();
    const email = `reader-${Date.now()}@example.com`;
    await box.getByLabel("Email address").fill(email);
    await box.getByRole("button", { name: "Subscribe" }).click();
    await expect(box.getByText("Thanks for subscribing!")).toBeVisible();
    await box.getByLabel("Email address").fill(email.toUpperCase());
    const answer = page.waitForResponse((r) => r.url().includes("/api/newsletter"));
    await box.getByRole("button", { name: "Subscribe" }).click();
    expect((await answer).status()).toBe(200);
    await expect(box.getByText("Thanks for subscribing!")).toBeVisible();
    await expect(box.getByText(/already subscribed/)).toHaveCount(0);
  });
});

test.describe("listings", () => {
  test("category listings show only products whose category contains that text", async ({
    page,
  }) => {
    await page.goto("/3d-prints");
    await expect(page.getByRole("heading", { name: "3D Prints", level: 1 })).toBeVisible();
    const cards = page.getByRole("list", { name: "3D Prints" }).getByRole("article");
    await expect(cards.first()).toBeVisible();
    const categories = await page
      .getByRole("list", { name: "3D Prints" })
      .locator("article p.product-card-category")
      .allTextContents();
    expect(categories.length).toBeGreaterThan(5);
    expect(new Set(categories)).toEqual(new Set(["3D Prints"]));

    await page.goto("/3d-characters");
    const characterCategories = await page
      .getByRole("list", { name: "3D Characters" })
      .locator("article p.product-card-category")
      .allTextContents();
    expect(new Set(characterCategories)).toEqual(new Set(["3D Characters"]));
  });

  test("a subcategory narrows the listing, and inactive products are not listed", async ({
    page,
  }) => {
    await page.goto("/3d-prints");
    await page
      .getByRole("navigation", { name: "Subcategories" })
      .getByRole("link", { name: "Home Decor" })
      .click();
    await expect(page).toHaveURL(/\/3d-prints\/home-decor$/);
    await expect(page.getByRole("heading", { name: "Home Decor", level: 1 })).toBeVisible();
    const list = page.getByRole("list", { name: "Home Decor" });
    await expect(list.getByRole("heading", { name: "Lotus Tealight Holder" })).toBeVisible();
    await expect(list.getByRole("heading", { name: "Faceted Succulent Planter" })).toHaveCount(0);
    // Jaali Lattice Lantern is Home Decor but inactive.
    await expect(list.getByRole("heading", { name: "Jaali Lattice Lantern" })).toHaveCount(0);
    await page.goto("/3d-prints/desk-office");
    await expect(page.getByRole("heading", { name: "Desk & Office", level: 1 })).toBeVisible();
    expect((await page.request.get("/3d-prints/no-such-sub")).status()).toBe(404);
    expect((await page.request.get("/products/anything")).status()).toBe(404);
    expect((await page.request.get("/no-such-listing")).status()).toBe(404);
  });

  test("All Products is 'Our Products' with every active product", async ({ page }) => {
    // Every active product, as the sitemap lists them (29 in the demo seed; other journeys may
    // have added some by now).
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    const active = sitemap.match(/\/product\//g)?.length ?? 0;
    expect(active).toBeGreaterThanOrEqual(29);
    await page.goto("/products");
    await expect(page.getByRole("heading", { name: "Our Products", level: 1 })).toBeVisible();
    await expect(page.getByText(`${active} products`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Jaali Lattice Lantern" })).toHaveCount(0);
  });

  test("a card opens its product page; Add to Cart reads 'Adding…' and fills the cart badge", async ({
    page,
  }) => {
    await page.goto("/products");
    const card = page.getByRole("article").filter({ hasText: "Geared Spinner Fidget" });
    // "Adding…" shows for 300 ms (against a double tap): on a busy machine a check after the
    // click can come later than that, so the page itself notes when the button reads it.
    await card.evaluate((article) => {
      const w = window as unknown as { sawAdding?: boolean };
      w.sawAdding = false;
      new MutationObserver(() => {
        const buttons = [...article.querySelectorAll("button")];
        if (buttons.some((b) => b.textContent?.includes("Adding…"))) w.sawAdding = true;
      }).observe(article, { subtree: true, childList: true, characterData: true });
    });
    await card.getByRole("button", { name: "Add to Cart" }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { sawAdding?: boolean }).sawAdding))
      .toBe(true);
    await expect(page.getByTestId("toast").filter({ hasText: "Added to cart" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("1");
    // The server renders the same count on the next page load: no flash of a wrong number.
    const html = await (await page.request.get("/products")).text();
    expect(html).toContain('data-testid="cart-count"');
    await card.getByRole("link", { name: "Geared Spinner Fidget" }).click();
    await expect(
      page.getByRole("heading", { name: "Geared Spinner Fidget", level: 1 }),
    ).toBeVisible();
  });

  test("the favourite heart asks a signed-out visitor to sign in", async ({ page }) => {
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Geared Spinner Fidget to favourites" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Sign in required");
    await expect(toast).toContainText("Please sign in to save favourites.");
  });

  test("a signed-in customer's heart toggles on the server", async ({ page, login }) => {
    await login();
    await page.goto("/products");
    await page.getByRole("button", { name: "Add Geared Spinner Fidget to favourites" }).click();
    await expect(
      page.getByTestId("toast").filter({ hasText: "Added to favourites" }),
    ).toBeVisible();
    await page.reload();
    await page
      .getByRole("button", { name: "Remove Geared Spinner Fidget from favourites" })
      .click();
    await expect(
      page.getByTestId("toast").filter({ hasText: "Removed from favourites" }),
    ).toBeVisible();
    await page.reload();
    await expect(
      page.getByRole("button", { name: "Add Geared Spinner Fidget to favourites" }),
    ).toBeVisible();
  });
});

test.describe("product page", () => {
  test("shows breadcrumb, gallery, price, stock, description, features, reviews and related", async ({
    page,
  }) => {
    const id = await productId(page, "Lotus Tealight Holder");
    await page.goto(`/product/${id}`);
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs.getByRole("link")).toHaveText(["Home", "3D Prints"]);
    await expect(crumbs).toContainText("Lotus Tealight Holder");
    await expect(page.getByTestId("stock-badge")).toHaveText("In Stock");
    await expect(page.getByText("₹349.00").first()).toBeVisible();
    await expect(page.getByTestId("features")).toContainText("Material:");
    await expect(page.getByRole("heading", { name: "Related Products" })).toBeVisible();
    await expect(
      page.getByRole("list", { name: "Related Products" }).getByRole("article"),
    ).toHaveCount(4);

    // Gallery: next, previous and thumbnails.
    const thumbs = page.getByRole("list", { name: "Images" }).getByRole("button");
    await expect(thumbs).toHaveCount(3);
    await page.getByRole("button", { name: "Next image" }).click();
    await expect(thumbs.nth(1)).toHaveAttribute("aria-current", "true");
    await page.getByRole("button", { name: "Previous image" }).click();
    await expect(thumbs.nth(0)).toHaveAttribute("aria-current", "true");
    await thumbs.nth(2).click();
    await expect(thumbs.nth(2)).toHaveAttribute("aria-current", "true");

    // JSON-LD for search engines.
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
    const product = ld.map((t) => JSON.parse(t)).find((d) => d["@type"] === "Product");
    expect(product.offers).toMatchObject({
      priceCurrency: "INR",
      price: "349.00",
      availability: "https://schema.org/InStock",
    });
    expect(product.aggregateRating.reviewCount).toBe(13);
  });

  test("reviews page 10 at a time, newest first, with the page number", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const id = await productId(page, "Lotus Tealight Holder");
    await page.goto(`/product/${id}`);
    await expect(page.getByTestId("review-count")).toHaveText("13 reviews");
    const reviews = page.getByTestId("reviews").getByRole("listitem");
    await expect(reviews).toHaveCount(10);
    await expect(page.getByTestId("review-page")).toHaveText("Page 1");
    const dates = await page
      .getByTestId("reviews")
      .locator("time")
      .evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
    expect([...dates].sort().reverse()).toEqual(dates);
    // Followed before the page hydrates, Next loads page 2 the browser's way (a whole page, focus
    // at its top); this journey checks the page's own way.
    const next = page.getByRole("navigation", { name: "Review pages" }).getByRole("link", {
      name: "Next",
    });
    await whenHydrated(next);
    await next.click();
    await expect(page.getByTestId("review-page")).toHaveText("Page 2");
    await expect(reviews).toHaveCount(3);
    // The new page's reviews are in view (a shorter page mustn't leave the reader below them),
    // and so is keyboard focus (the Next link pressed is gone: focus was left on <body>).
    await expect(reviews.first()).toBeInViewport();
    const focusInReviews = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest("#reviews")));
    await expect.poll(focusInReviews).toBe(true);
    await expect(
      page.getByRole("navigation", { name: "Review pages" }).getByRole("link", { name: "Next" }),
    ).toHaveCount(0);
    await page
      .getByRole("navigation", { name: "Review pages" })
      .getByRole("link", { name: "Previous" })
      .press("Enter");
    await expect(page.getByTestId("review-page")).toHaveText("Page 1");
    await expect.poll(focusInReviews).toBe(true);
    // From there, Tab goes on through the reviews' own controls, not from the top of the page.
    await page.keyboard.press("Tab");
    await expect.poll(focusInReviews).toBe(true);
  });

  test("the quantity stepper adds that many to the cart", async ({ page }) => {
    const id = await productId(page, "Lotus Tealight Holder");
    await page.goto(`/product/${id}`);
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: "Decrease quantity" }).click();
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("2");
  });

  test("an out-of-stock product shows 'Out of Stock' and 'Unavailable'; in the cart it offers checkout", async ({
    page,
  }) => {
    const id = await productId(page, "Wi-Fi Router Wall Mount");
    await page.goto(`/product/${id}`);
    await expect(page.getByTestId("stock-badge")).toHaveText("Out of Stock");
    await expect(page.getByRole("button", { name: "Unavailable" })).toBeDisabled();
    // Already in the cart (added before it sold out): the button offers checkout instead.
    await page.evaluate((productId) => {
      localStorage.setItem(
        "lk_cart",
        JSON.stringify([
          {
            productId,
            name: "Wi-Fi Router Wall Mount",
            pricePaise: 29900,
            image: null,
            category: "3D Prints",
            quantity: 1,
            addedAt: new Date().toISOString(),
          },
        ]),
      );
    }, id);
    await page.reload();
    await expect(page.getByRole("button", { name: "In Cart • Proceed to Checkout" })).toBeVisible();
  });

  test("an inactive product shows 'Inactive' and 'Unavailable'", async ({ page }) => {
    // Inactive products are in no listing, search or sitemap; the demo seed stores each product's
    // images under its id, which is how this test finds one.
    const id = await seededProductIdByKey("jaali-lattice-lantern");
    await page.goto(`/product/${id}`);
    await expect(
      page.getByRole("heading", { name: "Jaali Lattice Lantern", level: 1 }),
    ).toBeVisible();
    await expect(page.getByTestId("stock-badge")).toHaveText("Inactive");
    await expect(page.getByRole("button", { name: "Unavailable" })).toBeDisabled();
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    expect(sitemap).not.toContain(id);
  });

  test("a malformed id says 'Invalid product id'; an unknown one 'Product not found' with Return Home", async ({
    page,
  }) => {
    const bad = await page.goto("/product/not-a-real-id");
    expect(bad?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Invalid product id" })).toBeVisible();
    const missing = await page.goto("/product/00000000-0000-4000-8000-000000000000");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("search", () => {
  test("finds a seeded product from a misspelt query, with suggestions in the header", async ({
    page,
  }) => {
    await page.goto("/");
    const box = page.getByRole("combobox", { name: "Search products" }).first();
    await box.fill("dargon");
    const suggestions = page.getByRole("listbox", { name: "Suggestions" });
    await expect(suggestions.getByRole("option").first()).toContainText(/Dragon/);
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=dargon/);
    await expect(page.getByRole("heading", { name: /Results for/ })).toBeVisible();
    const results = page.getByRole("list", { name: "Search results" }).getByRole("article");
    await expect(results.first()).toContainText(/Dragon/);
    expect(await results.count()).toBeLessThanOrEqual(10);

    // A word the shop doesn't carry finds nothing rather than whatever shares its first letters.
    await page.goto("/search?q=ganesh");
    await expect(page.getByText("No products match “ganesh”.", { exact: false })).toBeVisible();
    await expect(results).toHaveCount(0);
  });

  test("shows at most 10 results a page and pages through the rest", async ({ page }) => {
    await page.goto("/search?q=3d");
    const results = page.getByRole("list", { name: "Search results" }).getByRole("article");
    await expect(results).toHaveCount(10);
    await page
      .getByRole("navigation", { name: "Result pages" })
      .getByRole("link", { name: "Next" })
      .click();
    await expect(page).toHaveURL(/page=2/);
    await expect(results.first()).toBeVisible();
  });
});

test.describe("contact", () => {
  test("validates with the spec's messages, sends, and clears subject and message", async ({
    page,
  }) => {
    await page.goto("/contact");
    await expect(page.getByText("Mon-Fri")).toBeVisible();
    await expect(page.getByText("Custom orders take 5-10 business days.")).toBeVisible();
    await page.getByRole("button", { name: "Send Message" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Validation Error");
    await expect(toast).toContainText("Please fill in all required fields.");

    await page.getByLabel("First Name").fill("Ravi");
    await page.getByLabel("Last Name").fill("Kumar");
    await page.getByLabel("Email").fill("ravi.example.com");
    await page.getByLabel("Subject").fill("Bulk order");
    await page.getByLabel("Message").fill("Can you print 40 lotus holders by next month?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(toast).toContainText("Invalid Email");
    await expect(toast).toContainText("Please enter a valid email address.");

    await page.getByLabel("Email").fill("ravi@example.com");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(toast).toContainText("Message Sent Successfully!");
    await expect(page.getByLabel("Subject")).toHaveValue("");
    await expect(page.getByLabel("Message")).toHaveValue("");
    await expect(page.getByLabel("First Name")).toHaveValue("Ravi");
    const mail = await readEmail("hello@layerkart.example", { subject: /Bulk order/ });
    expect(mail.text).toContain("Can you print 40 lotus holders");
  });

  test("the server refuses a message that skips the browser's checks", async ({ request }) => {
    const res = await request.post("/contact", {
      form: { firstName: "A", lastName: "", email: "a@b.c", subject: "x", message: "y" },
    });
    expect(res.status()).toBe(400);
  });

  test("is prefilled from the account and from ?subject=", async ({ page, login }) => {
    const user = await login();
    await page.goto("/contact?subject=Application%3A%203D%20Design%20Specialist");
    await expect(page.getByLabel("Subject")).toHaveValue("Application: 3D Design Specialist");
    await expect(page.getByLabel("Email")).toHaveValue(user.email);
    await expect(page.getByLabel("First Name")).toHaveValue(user.name.split(" ")[0]);
  });
});

test.describe("SEO", () => {
  test("pages carry a canonical URL and Open Graph tags; sitemap and robots exist", async ({
    page,
    request,
  }) => {
    await page.goto("/products");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/products$/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      "content",
      /Our Products/,
    );
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/about</loc>");
    expect(sitemap).toContain("/3d-prints/home-decor</loc>");
    expect(sitemap).toMatch(/\/product\/[0-9a-f-]{36}<\/loc>/);
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("Sitemap:");
  });
});
