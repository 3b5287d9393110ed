import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { expect, expectAccessible, test } from "./fixtures.ts";

const pages = [
  { path: "/about", h1: "About LayerKart" },
  { path: "/our-story", h1: "Our Story" },
  { path: "/careers", h1: "Careers at LayerKart" },
  { path: "/wholesale", h1: "Wholesale" },
  { path: "/press", h1: "Press" },
  { path: "/shipping", h1: "Shipping Policy" },
  { path: "/returns", h1: "Returns" },
  { path: "/privacy-policy", h1: "Privacy Policy" },
  { path: "/terms", h1: "Terms of Service" },
  { path: "/cookie-policy", h1: "Cookie Policy" },
  { path: "/refund-policy", h1: "Refund & Cancellation" },
  { path: "/policies", h1: "Shop Policies" },
  { path: "/size-guide", h1: "Size Guide" },
  { path: "/faq", h1: "Help & Support" },
] as const;

test.describe("content pages", () => {
  for (const { path, h1 } of pages) {
    test(`${path} is rendered on the server with its heading and Back/Home`, async ({
      page,
      request,
    }) => {
      const res = await request.get(path);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toContain("text/html");
      const html = await res.text();
      expect(html).toMatch(/<h1[^>]*>/);
      expect(html).toContain(h1.replace("&", "&amp;"));

      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await expect(page.getByRole("button", { name: "Back" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Home", exact: true })).toBeVisible();
    });
  }

  test("every content page fits a phone screen and passes axe in the dark theme", async ({
    page,
  }) => {
    // Every content page, each with an axe scan: over a minute on a slow machine (it timed out at
    // 60 s, twice, in a fresh clone's run on 2026-11-28).
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    for (const { path, h1 } of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    }
  });

  test("About names the founding year and the three values", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByText("2020").first()).toBeVisible();
    for (const value of ["Quality Craftsmanship", "Innovation", "Sustainability"]) {
      await expect(page.getByRole("heading", { level: 3, name: value })).toBeVisible();
    }
  });

  test("Our Story tells the 2020 garage start, growth, mission and values", async ({ page }) => {
    await page.goto("/our-story");
    await expect(page.getByRole("heading", { name: "One printer in a garage" })).toBeVisible();
    for (const heading of ["How we grew", "Our mission", "Our values"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
  });
});

test.describe("Help & Support", () => {
  test("the FAQ has 10 questions and opening one closes the one that was open", async ({
    page,
  }) => {
    await page.goto("/faq");
    const triggers = page.locator("[data-slot=accordion-trigger]");
    await expect(triggers).toHaveCount(10);

    const files = page.getByRole("button", { name: "Which file formats do you accept?" });
    const materials = page.getByRole("button", { name: "What materials do you print with?" });
    await expect(files).toHaveAttribute("aria-expanded", "false");

    await files.click();
    await expect(files).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByText("We accept STL, OBJ, 3MF and PLY files.")).toBeVisible();

    await materials.click();
    await expect(materials).toHaveAttribute("aria-expanded", "true");
    await expect(files).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByText("We accept STL, OBJ, 3MF and PLY files.")).toBeHidden();
    await expect(page.getByText(/printed in PLA and PETG/)).toBeVisible();
    await expect(page.locator("[data-slot=accordion-trigger][aria-expanded=true]")).toHaveCount(1);

    // Collapsible: the open item closes again, leaving none open.
    await materials.click();
    await expect(page.locator("[data-slot=accordion-trigger][aria-expanded=true]")).toHaveCount(0);
  });

  test("the FAQ states the spec's facts", async ({ page }) => {
    await page.goto("/faq");
    const answers: Array<[string, string | RegExp]> = [
      ["Is there a minimum value for custom orders?", "about ₹500"],
      ["Do you give discounts on larger orders?", "10 or more pieces may qualify"],
      ["How long will my order take?", "Standard orders take 5-10 business days"],
      ["Do you ship outside India?", "We ship worldwide, and every parcel is tracked"],
      ["Can you create a custom design for me?", "Custom designs are welcome"],
    ];
    for (const [question, answer] of answers) {
      await page.getByRole("button", { name: question }).click();
      await expect(page.getByText(answer)).toBeVisible();
    }
    await page.getByRole("button", { name: "Can I return or cancel an order?" }).click();
    const region = page.getByRole("region", { name: "Can I return or cancel an order?" });
    await expect(region.getByRole("link", { name: "Returns" })).toHaveAttribute("href", "/returns");
    await expect(region.getByRole("link", { name: "Refund & Cancellation" })).toHaveAttribute(
      "href",
      "/refund-policy",
    );
  });
});

test.describe("Careers", () => {
  test("lists both full-time Bangalore roles with Apply links that prefill the contact subject", async ({
    page,
  }) => {
    await page.goto("/careers");
    const positions = page.getByRole("region", { name: "Open positions" });
    const roles = positions.getByRole("listitem").filter({ has: page.getByRole("heading") });
    await expect(roles).toHaveCount(2);

    for (const role of ["3D Printing Technician", "3D Design Specialist"]) {
      const card = roles.filter({ has: page.getByRole("heading", { name: role }) });
      await expect(card.getByText("Full-time", { exact: true })).toBeVisible();
      await expect(card.getByText("Bangalore", { exact: true })).toBeVisible();
      const apply = card.getByRole("link", { name: `Apply for ${role}` });
      const href = await apply.getAttribute("href");
      expect(href).toBe(`/contact?subject=${encodeURIComponent(`Application: ${role}`)}`);
      const url = new URL(href!, "http://shop.test");
      expect(url.pathname).toBe("/contact");
      expect(url.searchParams.get("subject")).toBe(`Application: ${role}`);
    }

    await expect(page.getByRole("link", { name: "Send Resume" })).toHaveAttribute(
      "href",
      "/contact",
    );
  });
});

test.describe("Wholesale", () => {
  test("shows the volume tiers, minimum order, terms and an enquiry link", async ({ page }) => {
    await page.goto("/wholesale");
    const pricing = page.getByRole("region", { name: "Volume pricing" });
    const tiers = pricing.getByRole("listitem");
    await expect(tiers).toHaveCount(3);
    await expect(tiers.nth(0)).toContainText("10–49 units");
    await expect(tiers.nth(0)).toContainText("15% off");
    await expect(tiers.nth(1)).toContainText("50–199 units");
    await expect(tiers.nth(1)).toContainText("25% off");
    await expect(tiers.nth(2)).toContainText("200+ units");
    await expect(tiers.nth(2)).toContainText("35% off");
    await expect(pricing.getByText("Minimum wholesale order", { exact: true })).toBeVisible();
    await expect(pricing.getByText("₹5,000", { exact: true })).toBeVisible();
    await expect(
      pricing.getByText("Net 30 terms for established partners", { exact: true }),
    ).toBeVisible();

    await expect(page.getByRole("heading", { name: "What we make for businesses" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Requirements" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Send a wholesale enquiry" })).toHaveAttribute(
      "href",
      "/contact?subject=Wholesale%20enquiry",
    );
  });
});

test.describe("policies", () => {
  test("the separate policy pages carry the first reading", async ({ page }) => {
    await page.goto("/refund-policy");
    const main = page.getByRole("main");
    await expect(main).toContainText("within 3 days, as long as the order has not shipped");
    await expect(main).toContainText("within 3 days of purchase");
    await expect(main).toContainText("within 7 days");
    await expect(main).not.toContainText("12 hours");

    await page.goto("/shipping");
    await expect(page.getByRole("main")).toContainText("dispatched within about 10 days");

    await page.goto("/returns");
    await expect(page.getByRole("main")).toContainText(
      "refund or an exchange within 3 days of purchase",
    );
  });

  test("the combined /policies page carries the second reading", async ({ page }) => {
    await page.goto("/policies");
    const main = page.getByRole("main");
    await expect(main).toContainText("No returns");
    await expect(main).toContainText("within 24 hours of delivery");
    await expect(main).toContainText("within 12 hours of placing it");
    await expect(main).toContainText("7-10 business days");
    await expect(main).toContainText("5-6 business days");
    await expect(main).toContainText("5-10 business days in India");
    await expect(main).not.toContainText("within 3 days");
  });

  test("the cookie policy is one line", async ({ page }) => {
    await page.goto("/cookie-policy");
    await expect(page.getByRole("main").locator("p")).toHaveCount(2); // eyebrow + the line
    await expect(page.getByRole("main")).toContainText("We use only essential cookies");
  });
});

test.describe("Size Guide", () => {
  test("has a row per size with its range", async ({ page }) => {
    await page.goto("/size-guide");
    const table = page.getByRole("table", { name: "Print sizes and what they are good for" });
    const rows = table.getByRole("row");
    await expect(rows).toHaveCount(5);
    const expected = [
      ["Miniature", "1-5 cm"],
      ["Small", "5-15 cm"],
      ["Medium", "15-30 cm"],
      ["Large", "30+ cm"],
    ];
    for (const [i, [size, range]] of expected.entries()) {
      const row = rows.nth(i + 1);
      await expect(row.getByRole("rowheader")).toHaveText(size);
      await expect(row.getByRole("cell").first()).toHaveText(range);
    }
  });
});

test.describe("Press", () => {
  test("shows facts, coverage and a media contact", async ({ page }) => {
    await page.goto("/press");
    await expect(page.getByRole("region", { name: "Fast facts" })).toContainText("2020");
    await expect(
      page.getByRole("region", { name: "In the news" }).getByRole("listitem"),
    ).toHaveCount(4);
    await expect(
      page.getByRole("region", { name: "Media contact" }).getByRole("link", { name: /@/ }),
    ).toHaveAttribute("href", /^mailto:/);
  });

  test("the press kit button downloads a real zip with the logo, fact sheet and colours", async ({
    page,
  }) => {
    await page.goto("/press");
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download press kit" }).first().click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe("layerkart-press-kit.zip");

    const bytes = new Uint8Array(await readFile(await download.path()));
    expect(strFromU8(bytes.subarray(0, 2))).toBe("PK");
    expect(bytes.byteLength).toBeGreaterThan(1000);

    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual([
      "brand-colours.txt",
      "fact-sheet.txt",
      "layerkart-logo-mark.svg",
      "layerkart-logo.svg",
    ]);
    expect(strFromU8(files["layerkart-logo.svg"])).toContain("<svg");
    expect(strFromU8(files["fact-sheet.txt"])).toContain("2020");
    expect(strFromU8(files["brand-colours.txt"])).toContain("#B4441F");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Press");
  });

  test("/press-kit.zip answers as an attachment", async ({ request }) => {
    const res = await request.get("/press-kit.zip");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("application/zip");
    expect(res.headers()["content-disposition"]).toBe(
      'attachment; filename="layerkart-press-kit.zip"',
    );
  });
});
