import { describe, expect, it } from "vitest";
import {
  accountAreaSplice,
  applySplices,
  headSplice,
  heartSplices,
  personalScript,
} from "./personal-page.server.ts";

const visitor = '<a aria-label="Sign in" href="/auth"><svg></svg></a>';
const menu = '<button aria-label="Account: Meera">M</button>';
const unfilled = '<svg class="text-foreground"><use href="#lk-heart"></use></svg>';
const filled = '<svg class="fill-rose-600 text-rose-600"><use href="#lk-heart"></use></svg>';
const icons = { unfilled, filled };
const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const heart = (id: string, name: string) =>
  `<button class="rounded-full hover:text-accent-foreground" type="button" aria-pressed="false" aria-label="Add ${name} to favourites" data-favourite-id="${id}">${unfilled}</button>`;
const page = (main: string) =>
  `<html><head><title>x</title></head><body><header><nav></nav>${visitor}</header><main>${main}</main></body></html>`;

describe("a personalised page from a visitor's page", () => {
  it("swaps the account area, fills only the favourites' hearts and adds the data", () => {
    const html = page(
      heart(A, "Lamp &amp; Shade") + heart(B, "Vase") + heart(A, "Lamp &amp; Shade"),
    );
    const account = accountAreaSplice(html, visitor, menu);
    const hearts = heartSplices(html, [A], icons);
    const data = headSplice(html, personalScript("lk-personal", { viewer: { name: "M" } }));
    expect(account && hearts && data).toBeTruthy();
    const out = applySplices(html, [account!, ...hearts!, data!])?.toString("utf8");
    expect(out).toBe(
      `<html><head><title>x</title><script type="application/json" id="lk-personal">{"viewer":{"name":"M"}}</script></head><body><header><nav></nav>${menu}</header><main>${[
        heart(A, "Lamp &amp; Shade")
          .replace('aria-pressed="false"', 'aria-pressed="true"')
          .replace('aria-label="Add', 'aria-label="Remove')
          .replace("Shade to favourites", "Shade from favourites")
          .replace(unfilled, filled),
        heart(B, "Vase"),
        heart(A, "Lamp &amp; Shade")
          .replace('aria-pressed="false"', 'aria-pressed="true"')
          .replace('aria-label="Add', 'aria-label="Remove')
          .replace("Shade to favourites", "Shade from favourites")
          .replace(unfilled, filled),
      ].join("")}</main></body></html>`,
    );
  });

  it("finds no account area outside the header, or twice, or not at all", () => {
    expect(accountAreaSplice(page(visitor), visitor, menu)).toBeNull();
    expect(accountAreaSplice(page("").replace(visitor, ""), visitor, menu)).toBeNull();
    expect(
      accountAreaSplice(page("").replace(visitor, visitor + visitor), visitor, menu),
    ).toBeNull();
  });

  it("refuses a heart that isn't exactly the unpressed one", () => {
    const pressed = heart(A, "Lamp").replace('aria-pressed="false"', 'aria-pressed="true"');
    expect(heartSplices(page(pressed), [A], icons)).toBeNull();
    const otherIcon = heart(A, "Lamp").replace(unfilled, "<svg></svg>");
    expect(heartSplices(page(otherIcon), [A], icons)).toBeNull();
    // A favourite that isn't on the page changes nothing.
    expect(heartSplices(page(heart(B, "Vase")), [A], icons)).toEqual([]);
    // Only ids (uuids) are looked for.
    expect(heartSplices(page(heart(B, "Vase")), ['" onclick="x'], icons)).toBeNull();
  });

  it("escapes the data so that it can't end its element", () => {
    const script = personalScript("lk-personal", { name: "</script><script>alert(1)</script>&" });
    expect(script).not.toContain("</script><script>");
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    const json = script.slice(script.indexOf(">") + 1, script.lastIndexOf("</script>"));
    expect(JSON.parse(json)).toEqual({ name: "</script><script>alert(1)</script>&" });
  });

  it("splices by characters into the page's bytes, whatever stands before (₹, Devanagari)", () => {
    const html = "<p>₹399 गणेश</p><i>old</i><b>₹</b>";
    const at = html.indexOf("old");
    const out = applySplices(html, [
      { at, end: at + 3, text: "नया ₹1" },
      { at: html.indexOf("</b>"), end: html.indexOf("</b>"), text: "!" },
    ]);
    expect(out?.toString("utf8")).toBe("<p>₹399 गणेश</p><i>नया ₹1</i><b>₹!</b>");
    // The same with the page's bytes handed in, as the page cache keeps them.
    expect(
      applySplices(html, [{ at, end: at + 3, text: "x" }], Buffer.from(html))?.toString(),
    ).toBe("<p>₹399 गणेश</p><i>x</i><b>₹</b>");
  });

  it("refuses overlapping changes", () => {
    expect(
      applySplices("abcdef", [
        { at: 1, end: 4, text: "x" },
        { at: 2, end: 3, text: "y" },
      ]),
    ).toBeNull();
  });
});
