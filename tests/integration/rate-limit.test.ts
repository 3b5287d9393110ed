import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formPost, outcome, routeArgs, startProcessRuntime } from "../support/accounts.ts";
import { testDbKind } from "../support/test-database.ts";

/*
 * Forms anyone can send without an account are limited per client address: a script can't flood
 * the shop's inbox, subscriber list or offer leads.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
beforeAll(async () => {
  harness = await startProcessRuntime();
});
afterAll(async () => {
  await harness?.stop();
});

const send = async (path: string, fields: Record<string, string>, ip: string) => {
  const mod =
    path === "/api/newsletter"
      ? await import("~/routes/api.newsletter.ts")
      : await import("~/routes/contact.tsx");
  return outcome(async () => mod.action(routeArgs(formPost(path, fields, { ip })) as never));
};

describe(`anonymous write limits on ${testDbKind()}`, () => {
  it("the newsletter accepts 10 a minute from one address, then answers 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await send("/api/newsletter", { email: `flood-${i}@example.com` }, "192.0.2.50");
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another address is not affected.
    expect(
      (await send("/api/newsletter", { email: "other@example.com" }, "192.0.2.51")).status,
    ).toBe(200);
  });

  it("the contact form accepts 5 a minute from one address", async () => {
    const fields = {
      firstName: "Asha",
      lastName: "Rao",
      email: "asha@example.com",
      subject: "Hello",
      message: "Do you print in PETG?",
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send("/contact", fields, "192.0.2.60")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
