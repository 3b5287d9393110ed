import type { Browser, Locator, Page } from "@playwright/test";
import { box, toBinaryStl } from "../../app/rules/model3d/testing/shapes.ts";
import { shortDate } from "../../app/rules/working-days.ts";
import { addAddress, expect, signIn, test } from "./fixtures.ts";
import { dropFiles, projectPlate3mf, switchBrowser } from "./models.ts";

/*
 * Issue 26's whole project, as a customer makes it: two files and a 3MF of two objects dropped
 * at once are four parts, each with its own material; one drawn in inches is switched to inches;
 * a thin part shows its thin walls on the preview and what would fix them; one needs support;
 * Express for the project; four cart lines in one step at the server's prices with the Express
 * date; each part sliced in the job queue (the e2e server always has a slicer: PrusaSlicer when
 * installed, else the fake one, scripts/e2e-server.ts), the cart showing any price the slicer
 * moved; paid in the sandbox; staff see the parts with their units, findings and the slicer's
 * figures beside the instant ones. On a desktop and on a 390 px phone.
 */

/** A bracket drawn in inches: 5 × 4 × 2 "mm" is not believable, 127 × 102 × 51 mm is. */
const bracketStl = () => Buffer.from(toBinaryStl(box(5, 4, 2)));
/** A fin with a 0.4 mm wall: too thin for PLA's 0.8 mm, fixed by printing it at 200 %. */
const finStl = () => Buffer.from(toBinaryStl(box(20, 0.4, 10)));

const paise = (text: string | null) =>
  Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100);

/** Selects a part of the project by its file name and sets its material and colour. */
async function choose(rows: Locator, page: Page, name: string, material: string, colour: string) {
  await rows
    .filter({ hasText: name })
    .getByRole("button", { name: new RegExp(`^${name.replace(/[().]/g, "\\$&")}`) })
    .click();
  await expect(page.getByTestId("selected-part")).toHaveText(`Options for ${name}`);
  await page.getByLabel("Material", { exact: true }).selectOption({ label: material });
  await page.getByLabel("Colour", { exact: true }).selectOption(colour);
}

const FILES = [
  "bracket.stl",
  "fin.stl",
  "plate (part 1 of 2).3mf",
  "plate (part 2 of 2).3mf",
] as const;

/** The review queue's line for one part: the slicer's figures beside the instant ones. */
const SLICED =
  /^Slicer: (Price updated from the slicer's figures|Within the tolerance: price kept) · Material [\d.,]+ g \(instant [\d.,]+ g\) · Support ([\d.,]+ g|not reported) \(instant [\d.,]+ g\) · Print time (\d+ h )?\d+ min \(instant (\d+ h )?\d+ min\) · Price per piece ₹[\d,.]+ \(instant ₹[\d,.]+\)$/;

/** Staff signed in on a browser of their own, beside the customer's. */
async function staffBrowser(browser: Browser, page: Page) {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { "X-Forwarded-For": "10.250.0.1" },
  });
  const staff = await context.newPage();
  await signIn(staff, { email: "admin@example.com", password: "demo-admin-password" });
  return staff;
}

/**
 * Waits, as staff, until each of the customer's parts in the cart has been sliced (the slicing
 * job runs after the part is put in the cart: a moment with the fake slicer, seconds with
 * PrusaSlicer on a busy machine), and returns each part's slicer line by file name.
 */
async function slicedParts(staff: Page, email: string) {
  const found = new Map<string, string>();
  await expect(async () => {
    await staff.goto("/admin/quotes?status=in_cart");
    const mine = staff.getByRole("listitem").filter({ hasText: email });
    for (const file of FILES) {
      const line = mine.filter({ hasText: file }).first().getByTestId("quote-slice");
      await expect(line).toHaveText(SLICED, { timeout: 1000 });
      found.set(file, (await line.textContent()) ?? "");
    }
  }).toPass({ timeout: 150_000, intervals: [1000, 2000, 3000] });
  return found;
}

/** Both speeds readable and tappable inside the viewport, nothing cut off (issue 26, phones). */
async function expectSpeedChoiceFits(page: Page) {
  const width = page.viewportSize()?.width ?? 1280;
  const choice = page.getByTestId("speed-choice");
  await choice.scrollIntoViewIfNeeded();
  for (const name of [/^Standard/, /^Express/]) {
    const option = choice.locator("label").filter({ has: page.getByRole("radio", { name }) });
    const area = await option.boundingBox();
    expect(area).not.toBeNull();
    expect(area!.x).toBeGreaterThanOrEqual(0);
    expect(area!.x + area!.width).toBeLessThanOrEqual(width);
    // A thumb's target (WCAG 2.5.5's 44 px) over the whole option, not just the radio.
    expect(area!.height).toBeGreaterThanOrEqual(44);
    // Its label and date are shown whole, not cut off or spilling out.
    const clipped = await option.evaluate((el) =>
      [el, ...el.querySelectorAll("span")].some((e) => e.scrollWidth > e.clientWidth + 1),
    );
    expect(clipped).toBe(false);
  }
}

for (const device of [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "390 px phone", viewport: { width: 390, height: 844 } },
]) {
  test.describe(`a custom project (${device.name})`, () => {
    test.use({ viewport: device.viewport });

    test("four parts from three files, inches, a thin wall fixed, support, Express, one step into the cart, sliced, paid, and staff see the parts and the slicer's figures", async ({
      page,
      login,
      browser,
    }) => {
      test.setTimeout(480_000);
      const customer = await login();
      await page.goto("/custom-printing");
      await dropFiles(page, [
        { name: "bracket.stl", bytes: bracketStl() },
        { name: "fin.stl", bytes: finStl() },
        { name: "plate.3mf", bytes: projectPlate3mf() },
      ]);
      const rows = page.getByTestId("project-part");
      // Read in the browser one after another (slow on a loaded machine).
      await expect(rows).toHaveCount(4, { timeout: 30_000 });
      await expect(rows.getByTestId("model-file-name")).toHaveText([...FILES]);

      // The bracket: drawn in inches. Both readings, a one-click switch, in PETG.
      await choose(rows, page, "bracket.stl", "PETG", "White");
      await expect(page.getByTestId("model-size")).toHaveText("5.0 × 4.0 × 2.0 mm");
      const readings = page.getByTestId("unit-readings");
      await expect(readings).toContainText("or 127 × 102 × 50.8 mm if the file is in inches");
      await readings.getByRole("button", { name: "Use inches" }).click();
      await expect(page.getByLabel("File units")).toHaveValue("inch");
      await expect(page.getByTestId("model-size")).toHaveText("127.0 × 101.6 × 50.8 mm");
      await expect(page.getByTestId("quote-problems")).toHaveCount(0);

      // The fin: its 0.4 mm wall in colour on the preview, with what would fix it.
      await choose(rows, page, "fin.stl", "PLA", "Black");
      await expect(page.getByTestId("thin-walls")).toHaveText(
        "Walls as thin as 0.4 mm: PLA needs at least 0.8 mm. Thicken them to 0.8 mm, or scale the model to 200 % or more.",
      );
      await expect(page.getByTestId("preview-legend")).toContainText("Pink: wall too thin");
      await expect(page.getByTestId("model-preview").getByRole("img")).toHaveAttribute(
        "aria-label",
        /Pink faces are walls too thin for the material\./,
      );
      await expect(page.getByTestId("quote-problems")).toContainText(
        "Some walls are thinner than this material can print.",
      );
      // Not priced as it is: left out of the project until fixed.
      await expect(page.getByTestId("project-count")).toHaveText("Project, 3 parts");
      await expect(page.getByTestId("project-left-out")).toBeVisible();
      // The fix it names: twice the size.
      await page.getByLabel("Scale (%)").fill("200");
      await expect(page.getByTestId("thin-walls")).toHaveCount(0);
      await expect(page.getByTestId("quote-problems")).toHaveCount(0);
      await expect(page.getByTestId("project-count")).toHaveText("Project, 4 parts");
      await expect(page.getByTestId("project-left-out")).toHaveCount(0);

      // The 3MF's two objects: millimetres from the file, each its own material.
      await choose(rows, page, "plate (part 1 of 2).3mf", "TPU (flexible)", "White");
      await expect(page.getByTestId("unit-readings")).toHaveText("Units as stated in the file.");
      // The shelf: laid on its base, its arm needs support, priced in.
      await choose(rows, page, "plate (part 2 of 2).3mf", "Silk PLA", "Gold");
      await expect(page.getByTestId("support")).toHaveText(
        /^Needs support under overhangs: about [\d.]+ g of support material is included in the price\.$/,
      );
      await expect(page.getByTestId("preview-legend")).toContainText("Orange: needs support");
      await expect(rows.getByTestId("part-options")).toHaveText([
        "PETG, White · 1 piece",
        "PLA, Black · 1 piece",
        "TPU (flexible), White · 1 piece",
        "Silk PLA, Gold · 1 piece",
      ]);

      // Express for the whole project: its date, sooner than or as soon as Standard.
      const standardDay = await page.getByTestId("speed-standard-date").getAttribute("data-day");
      await page.getByLabel(/^Express/).check();
      const expressDate = page.getByTestId("speed-express-date");
      await expect(expressDate).toHaveText(/^Ready by /);
      const expressDay = (await expressDate.getAttribute("data-day"))!;
      expect(expressDay <= standardDay!).toBe(true);
      await expect(page.getByTestId("project-ready-by")).toHaveText(
        `Ready by ${shortDate(expressDay)}`,
      );
      await expectSpeedChoiceFits(page);

      // Each part's price (Express included) and the project's total, as the page shows them.
      const prices = new Map<string, number>();
      for (const row of await rows.all()) {
        const name = (await row.getByTestId("model-file-name").textContent()) ?? "";
        prices.set(name, paise(await row.getByTestId("part-total").textContent()));
      }
      const total = paise(await page.getByTestId("project-total").textContent());
      expect([...prices.values()].reduce((a, b) => a + b, 0)).toBe(total);

      // One step: four cart lines, priced and dated by the server.
      const add = page.getByRole("button", { name: "Add 4 parts to cart" });
      await expect(add).toBeEnabled({ timeout: 30_000 });
      await add.click();
      await expect(page.getByTestId("toast")).toContainText("4 custom parts added to your cart");
      // Each part is sliced in the job queue (decision 0020). Wait for all four, then the cart
      // shows each part at the price it has now: the page's, or the slicer's with the note when
      // it moved the price past the tolerance.
      const staff = await staffBrowser(browser, page);
      const sliced = await slicedParts(staff, customer.email);
      await staff.context().close();
      const priceNow = new Map<string, number>();
      for (const file of FILES) {
        const line = sliced.get(file)!;
        const moved = line.includes("Price updated from the slicer's figures");
        const slicerPrice = /Price per piece (₹[\d,.]+) \(instant/.exec(line)![1];
        priceNow.set(file, moved ? paise(slicerPrice) : prices.get(file)!);
      }

      // (The toast's "Go to cart" is gone by now.)
      await page.goto("/cart");
      const lines = page.getByTestId("cart-line");
      await expect(lines).toHaveCount(4);
      const expected = [
        ["bracket.stl", "Custom print: bracket (PETG, White, Express)"],
        ["fin.stl", "Custom print: fin (PLA, Black, Express)"],
        [
          "plate (part 1 of 2).3mf",
          "Custom print: plate (part 1 of 2) (TPU (flexible), White, Express)",
        ],
        ["plate (part 2 of 2).3mf", "Custom print: plate (part 2 of 2) (Silk PLA, Gold, Express)"],
      ] as const;
      const rupees = (p: number) =>
        `₹${(p / 100).toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      // The four are dated together (with the slicer's times once sliced): one Express date.
      const partDate = await lines.first().getByTestId("line-part-date").textContent();
      expect(partDate).toMatch(/^Express · ready by /);
      for (const [file, name] of expected) {
        const line = lines.filter({ hasText: name });
        await expect(line).toHaveCount(1);
        await expect(line).toContainText(`${rupees(priceNow.get(file)!)} each`);
        if (priceNow.get(file) !== prices.get(file)) {
          await expect(line.getByTestId("line-price-note")).toContainText(
            "Price updated after slicing your model: Our slicer worked out",
          );
        } else {
          await expect(line.getByTestId("line-price-note")).toHaveCount(0);
        }
        await expect(line.getByTestId("line-part-date")).toHaveText(partDate!);
      }
      expect(paise(await page.getByTestId("summary-subtotal").textContent())).toBe(
        [...priceNow.values()].reduce((a, b) => a + b, 0),
      );

      // Paid in the sandbox.
      await page.getByRole("button", { name: "Proceed to Checkout" }).click();
      await expect(page).toHaveURL(/\/addresses\?from=checkout$/);
      await addAddress(page);
      await page.getByRole("link", { name: "Continue to Checkout" }).click();
      await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/sandbox\/pay\//);
      await page.getByRole("button", { name: "Simulate success" }).click();
      await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
      await expect(page).toHaveURL(/\/orders$/, { timeout: 15_000 });
      const card = page.getByTestId("order-card").first();
      await expect(card).toContainText("Processing");
      for (const [, name] of expected) await expect(card).toContainText(name);

      // Staff, on another browser: the ordered parts with their units, findings and the slicer's
      // figures beside the instant ones.
      await switchBrowser(page);
      await signIn(page, { email: "admin@example.com", password: "demo-admin-password" });
      await page.goto("/admin/quotes?status=ordered");
      const mine = page.getByRole("listitem").filter({ hasText: customer.email });
      const part = (file: string) => mine.filter({ hasText: file }).first();
      await expect(part("bracket.stl").getByTestId("quote-unit")).toHaveText(
        "Read in inches (the customer's choice; the file states none)",
      );
      await expect(part("plate (part 1 of 2).3mf").getByTestId("quote-unit")).toHaveText(
        "Read in millimetres (stated in the file)",
      );
      await expect(part("fin.stl").getByTestId("quote-findings")).toHaveText(
        "Walls near the minimum: 0.8 mm at the thinnest (PLA needs 0.8 mm) · Printed turned onto its largest flat face",
      );
      await expect(part("plate (part 2 of 2).3mf").getByTestId("quote-findings")).toHaveText(
        /^Needs support: about [\d.]+ g under 200 mm² of overhangs$/,
      );
      await expect(part("plate (part 1 of 2).3mf").getByTestId("quote-findings")).toHaveText(
        "Walls and overhangs fine",
      );
      for (const file of FILES) {
        await expect(part(file).getByTestId("quote-part-date")).toContainText("Express");
        // Sliced while in the cart: the same figures, whatever came of the price then.
        await expect(part(file).getByTestId("quote-slice")).toHaveText(sliced.get(file)!);
      }
      // The shelf was sliced with support: the instant support grams are not zero.
      expect(sliced.get("plate (part 2 of 2).3mf")).toMatch(/Support [\d.,]+ g \(instant [1-9]/);
      await part("fin.stl").getByRole("link", { name: "fin.stl" }).click();
      await expect(page.getByTestId("quote-size-mm")).toHaveText("40 × 0.8 × 20 mm");
      await expect(page.getByTestId("quote-findings")).toHaveText(
        "Walls near the minimum: 0.8 mm at the thinnest (PLA needs 0.8 mm); Printed turned onto its largest flat face",
      );
      await expect(page.getByTestId("quote-slice-material")).toHaveText(/^[\d.,]+ g$/);
      await expect(page.getByTestId("quote-slice-print-time")).toHaveText(/^(\d+ h )?\d+ min$/);
      await expect(page.getByTestId("quote-speed")).toHaveText("Express");
      await expect(page.getByTestId("quote-ready-by")).toHaveText(/^Ready by /);
    });
  });
}
