import { expect, readEmail, test, whenHydrated } from "./fixtures.ts";

/*
 * A form sent while the browser is offline (app/lib/offline-requests.ts). It failed at once and
 * the error page took the page's place ("Unexpected Application Error! Failed to fetch"), with
 * what was typed in it. It now waits, says why, and goes once the browser is back online.
 */

test("a message sent offline waits on the page, with its text, and is sent once back online", async ({
  page,
}) => {
  await page.goto("/contact");
  const send = page.getByRole("button", { name: "Send Message" });
  await whenHydrated(send);
  await page.getByLabel("First Name").fill("Ravi");
  await page.getByLabel("Last Name").fill("Kumar");
  await page.getByLabel("Email").fill("ravi@example.com");
  const subject = `Offline order ${Date.now()}`;
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message").fill("Can you print 40 lotus holders by next month?");
  await page.context().setOffline(true);
  await send.click();
  const notice = page.getByTestId("offline-notice");
  await expect(notice).toHaveText("You're offline. It will be sent when you're back online.");
  // Announced: put into a polite live region that was there, empty, before.
  await expect(notice.locator("xpath=..")).toHaveAttribute("aria-live", "polite");
  // The page and what was typed stay.
  await page.waitForTimeout(1000);
  await expect(page.getByLabel("Message")).toHaveValue(
    "Can you print 40 lotus holders by next month?",
  );
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);

  await page.context().setOffline(false);
  await expect(page.getByTestId("toast")).toContainText("Message Sent Successfully!");
  await expect(notice).toHaveCount(0);
  await expect(page.getByLabel("Message")).toHaveValue("");
  const mail = await readEmail("hello@layerkart.example", { subject: new RegExp(subject) });
  expect(mail.text).toContain("Can you print 40 lotus holders");
});

test("a favourite tapped offline, on a page that hasn't yet sent one, is saved once back online", async ({
  page,
  login,
}) => {
  // The page learns of the favourites' route from the shop only when a heart is first tapped:
  // offline, that failed to the error page even before the favourite itself was sent.
  await login();
  await page.goto("/products");
  const heart = page.getByRole("button", { name: "Add Geared Spinner Fidget to favourites" });
  await whenHydrated(heart);
  await page.context().setOffline(true);
  await heart.click();
  await expect(page.getByTestId("offline-notice")).toHaveText(
    /^You're offline\. (We'll carry on|It will be sent) when you're back online\.$/,
  );
  await page.waitForTimeout(1000);
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);
  await page.context().setOffline(false);
  await expect(page.getByTestId("toast").filter({ hasText: "Added to favourites" })).toBeVisible();
  await expect(page.getByTestId("offline-notice")).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole("button", { name: "Remove Geared Spinner Fidget from favourites" }),
  ).toBeVisible();
});
