import { describe, expect, it } from "vitest";
import { queryParam, readForm, readJson } from "./forms.server.ts";

const post = (body: string, type = "application/x-www-form-urlencoded") =>
  new Request("http://localhost/x", { method: "POST", headers: { "content-type": type }, body });

/** The status of what a reader throws (a React Router `data()`), or 200 when it doesn't. */
async function status(read: Promise<unknown>): Promise<number> {
  try {
    await read;
    return 200;
  } catch (thrown) {
    return (thrown as { init?: { status?: number } }).init?.status ?? 500;
  }
}

describe("reading text from requests (issue 20)", () => {
  it("readForm gives composed Unicode and refuses control characters, in values and names", async () => {
    const form = await readForm(post("name=Rene%CC%81&note=line1%0D%0Aline2"));
    expect(form.get("name")).toBe("René");
    expect(form.get("note")).toBe("line1\r\nline2");
    expect(await status(readForm(post("message=a%00b")))).toBe(400);
    expect(await status(readForm(post("na%00me=x")))).toBe(400);
    expect(await status(readForm(post("x=%1B%5B31m")))).toBe(400);
  });

  it("readForm refuses a body over its limit with 413, and what isn't a form with 415", async () => {
    expect(await status(readForm(post(`x=${"a".repeat(2_000)}`), 1_000))).toBe(413);
    expect(await status(readForm(post("{}", "application/json")))).toBe(415);
  });

  it("readJson cleans every string, refuses control characters, and gives null for non-JSON", async () => {
    expect(await readJson(post('{"a":["Cafe\\u0301"]}', "application/json"))).toEqual({
      a: ["Café"],
    });
    expect(await status(readJson(post('{"a":"x\\u0000"}', "application/json")))).toBe(400);
    expect(await readJson(post("{oops", "application/json"))).toBeNull();
  });

  it("queryParam gives composed Unicode, and null for a control character", () => {
    expect(queryParam("http://localhost/search?q=cafe%CC%81", "q")).toBe("café");
    expect(queryParam("http://localhost/search?q=%00", "q")).toBeNull();
    expect(queryParam(new URL("http://localhost/search"), "q")).toBeNull();
  });
});
