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
  await expect(notice).toHaveRole("status");
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
