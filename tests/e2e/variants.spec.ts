import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { addAddress, expect, holdHydration, test } from "./fixtures.ts";

/*
 * Issue 22, the customer's side: on a product with a Colour and a Size, picking values changes
 * the price and the address (and the address shows that variant when opened), a sold-out
 * combination can't be added, and two variants of the product sit in the (guest) cart as two lines
 * with their options and prices. On a desktop and on a 390 px phone. The product is one of the demo seed's with
 * options, found through its page's structured data (which names each variant's colour, size,
 * price, availability and address), so the journey holds whatever the demo's values are.
 */

type Offer = { price: string; availability: string; url: string };
type VariantLd = { color?: string; size?: string; offers: Offer };
type Found = { path: string; name: string; variants: VariantLd[]; listing: string };

async function productGroup(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  for (const [, json] of html.matchAll(
    /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g,
  )) {
    const ld = JSON.parse(json ?? "{}");
    if (ld["@type"] === "ProductGroup") return ld as { name: string; hasVariant: VariantLd[] };
  }
  return null;
}

/** A demo product whose variants vary by colour and size, with a sold-out one and two prices. */
async function findProduct(page: Page): Promise<Found> {
  for (const listing of ["/products", "/products?page=2"]) {
    await page.goto(listing);
    const hrefs = await page
      .getByRole("list", { name: "Our Products" })
      .locator('a[href^="/product/"]')
      .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href") ?? ""))]);
    for (const path of hrefs) {
      const group = await productGroup(page, path);
      const variants = (group?.hasVariant ?? []).filter((v) => v.color && v.size);
      const inStock = variants.filter((v) => v.offers.availability.endsWith("/InStock"));
      if (
        group &&
        variants.some((v) => v.offers.availability.endsWith("/OutOfStock")) &&
        new Set(inStock.map((v) => v.offers.price)).size > 1
      ) {
        return { path, name: group.name, variants, listing };
      }
    }
  }
  throw new Error("no demo product has colours and sizes with a sold-out combination");
}

const radio = (group: Locator, value: string | undefined) =>
  group.getByRole("radio", { name: new RegExp(`^${value}\\b`) });

/** Picks a value as a customer does: a click on its swatch or button (the label). */
async function choose(group: Locator, value: string | undefined) {
  const name = new RegExp(`^${value}\\b`);
  await group.locator("label", { has: group.page().getByRole("radio", { name }) }).click();
  await expect(radio(group, value)).toBeChecked();
}

const rupees = (price: string) =>
  `₹${Number(price).toLocaleString("en-IN", { minimumFractionDigits: 2 })}`;
const variantOf = (v: VariantLd) => new URL(v.offers.url).searchParams.get("variant");

test("a colour and a size picked before the page hydrates are the page's once it hydrates", async ({
  page,
}) => {
  // React kept the server's choice while the page showed the customer's: Add to Cart would have
  // added the default variant.
  const product = await findProduct(page);
  const inStock = product.variants.filter((v) => v.offers.availability.endsWith("/InStock"));
  const first = inStock[0] as VariantLd;
  const second = inStock.find((v) => v.offers.price !== first.offers.price) as VariantLd;
  const release = await holdHydration(page);
  await page.goto(product.path, { waitUntil: "domcontentloaded" });
  const picker = page.getByTestId("option-picker");
  const colours = picker.getByRole("group", { name: /^Colour/ });
  const sizes = picker.getByRole("group", { name: /^Size/ });
  for (const [group, value] of [
    [colours, second.color],
    [sizes, second.size],
  ] as const) {
    const name = new RegExp(`^${value}\\b`);
    await group.locator("label", { has: page.getByRole("radio", { name }) }).click();
  }
  release();
  await expect(page).toHaveURL(new RegExp(`\\?variant=${variantOf(second)}$`));
  await expect(page.getByTestId("product-price").locator("span").first()).toHaveText(
    rupees(second.offers.price),
  );
  await expect(radio(colours, second.color)).toBeChecked();
  await expect(radio(sizes, second.size)).toBeChecked();
});

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test.describe(`on a ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("picking a colour and a size changes the price and the address; a sold-out one can't be added; two variants make two cart lines", async ({
      page,
    }) => {
      // Every page it passed through is checked again for accessibility at the end.
      test.setTimeout(150_000);
      const product = await findProduct(page);

      // Its card can't say which colour and size: it opens the page to choose them (it once added
      // the default variant), in the listing and in search results; plain products keep 'Add to
      // Cart'.
      for (const where of [product.listing, `/search?q=${encodeURIComponent(product.name)}`]) {
        await page.goto(where);
        const grid = page.getByRole("list", { name: /^(Our Products|Search results)$/ });
        await expect(
          grid.getByRole("button", { name: `Add to Cart: ${product.name}`, exact: true }),
        ).toHaveCount(0);
        await expect(
          grid.getByRole("link", { name: `Choose options: ${product.name}`, exact: true }),
        ).toHaveText("Choose options");
      }
      await page.goto(product.listing);
      await expect(page.getByRole("button", { name: /^Add to Cart: / }).first()).toBeVisible();
      await page
        .getByRole("link", { name: `Choose options: ${product.name}`, exact: true })
        .click();
      await expect(page).toHaveURL(new RegExp(`${product.path}$`));
      await expect(page.getByTestId("option-picker")).toBeVisible();

      const inStock = product.variants.filter((v) => v.offers.availability.endsWith("/InStock"));
      const soldOut = product.variants.find((v) => v.offers.availability.endsWith("/OutOfStock"));
      const first = inStock[0] as VariantLd;
      const second = inStock.find((v) => v.offers.price !== first.offers.price) as VariantLd;

      await page.goto(product.path);
      const picker = page.getByTestId("option-picker");
      const colours = picker.getByRole("group", { name: /^Colour/ });
      const sizes = picker.getByRole("group", { name: /^Size/ });
      const price = page.getByTestId("product-price").locator("span").first();
      const addButton = page.getByRole("button", { name: "Add to Cart", exact: true });

      // The page opens on the default (the first that sells); each pick names its variant.
      for (const v of [second, first]) {
        await choose(colours, v.color);
        await choose(sizes, v.size);
        await expect(page).toHaveURL(new RegExp(`\\?variant=${variantOf(v)}$`));
        await expect(price).toHaveText(rupees(v.offers.price));
        await expect(page.getByTestId("stock-badge")).toHaveText("In Stock");
        await expect(addButton).toBeEnabled();
      }

      // The address is the variant's: opened afresh, the server shows it chosen.
      await page.reload();
      await expect(radio(colours, first.color)).toBeChecked();
      await expect(radio(sizes, first.size)).toBeChecked();
      await expect(price).toHaveText(rupees(first.offers.price));

      // A sold-out combination says so, and can't be added.
      if (!soldOut) throw new Error("no sold-out variant");
      await choose(colours, soldOut.color);
      await choose(sizes, soldOut.size);
      await expect(page).toHaveURL(new RegExp(`\\?variant=${variantOf(soldOut)}$`));
      await expect(page.getByTestId("stock-badge")).toHaveText("Out of Stock");
      await expect(page.getByRole("button", { name: "Unavailable", exact: true })).toBeDisabled();
      await expect(addButton).toHaveCount(0);
      // The chosen colour's own label says it is out of stock in that size.
      await expect(
        colours.getByRole("radio", { name: `${soldOut.color} (Out of Stock)` }),
      ).toBeChecked();

      // Two variants of the product: two lines in the cart, each with its options and price.
      for (const v of [first, second]) {
        await choose(colours, v.color);
        await choose(sizes, v.size);
        await addButton.click();
        // The button is busy for a moment after each add (no double add on a double tap).
        await expect(addButton).toBeEnabled();
      }
      await page.goto("/cart");
      const lines = page.getByTestId("cart-line").filter({ hasText: product.name });
      await expect(lines).toHaveCount(2);
      for (const v of [first, second]) {
        const line = lines.filter({ hasText: `Colour: ${v.color} · Size: ${v.size}` });
        await expect(line).toHaveCount(1);
        await expect(line.getByText(`${rupees(v.offers.price)} each`)).toBeVisible();
        // The line opens its own variant, not the product's default.
        await expect(line.getByRole("link", { name: product.name, exact: true })).toHaveAttribute(
          "href",
          `${product.path}?variant=${variantOf(v)}`,
        );
      }
      await expect(page.getByRole("heading", { name: "Shopping Cart (2 items)" })).toBeVisible();
    });
  });
}

test("two variants of one product are paid in the sandbox; /orders and the invoice name their options", async ({
  page,
  login,
}) => {
  test.setTimeout(150_000);
  await login();
  const product = await findProduct(page);
  const inStock = product.variants.filter((v) => v.offers.availability.endsWith("/InStock"));
  const first = inStock[0] as VariantLd;
  const second = inStock.find((v) => v.offers.price !== first.offers.price) as VariantLd;
  const labels = [first, second].map((v) => `Colour: ${v.color} · Size: ${v.size}`);

  await page.goto(product.path);
  const picker = page.getByTestId("option-picker");
  const addButton = page.getByRole("button", { name: "Add to Cart", exact: true });
  for (const v of [first, second]) {
    await choose(picker.getByRole("group", { name: /^Colour/ }), v.color);
    await choose(picker.getByRole("group", { name: /^Size/ }), v.size);
    await addButton.click();
    await expect(addButton).toBeEnabled();
  }
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line").filter({ hasText: product.name })).toHaveCount(2);
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
  await addAddress(page);
  await page.getByRole("link", { name: "Continue to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  // Checkout lists each variant with its options, priced by the server.
  for (const label of labels) await expect(page.getByText(label).first()).toBeVisible();

  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole("button", { name: "Simulate success" }).click();
  await expect(page).toHaveURL(/\/orders$/, { timeout: 15_000 });
  const card = page.getByTestId("order-card").first();
  for (const label of labels) await expect(card).toContainText(label);
  // Each item links to the variant that was ordered.
  const links = card.getByRole("link", { name: product.name, exact: true });
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs.sort()).toEqual(
    [first, second].map((v) => `${product.path}?variant=${variantOf(v)}`).sort(),
  );

  const downloading = page.waitForEvent("download");
  await page
    .getByRole("link", { name: /Download Invoice/ })
    .first()
    .click();
  const download = await downloading;
  const pdf = await getDocumentProxy(new Uint8Array(await readFile(await download.path())));
  const { text } = await extractText(pdf, { mergePages: true });
  // A line's name wraps in its cell: the words are compared, not the line breaks.
  const words = text.replace(/\s+/g, " ");
  for (const label of labels) expect(words).toContain(`${product.name} (${label})`);
});
