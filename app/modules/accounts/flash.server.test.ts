import { describe, expect, it } from "vitest";
import { flashCookie, readFlash } from "./flash.server.ts";

const requestWith = (cookie: string | null) =>
  new Request("http://localhost/", { headers: cookie ? { cookie } : {} });

describe("one-shot messages", () => {
  it("carry 'Signed out' across a redirect once, then clear themselves", () => {
    const setCookie = flashCookie("signed-out", false);
    expect(setCookie).toMatch(
      /^lk_flash=signed-out\.[0-9a-f]{12}; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/,
    );
    const { flash, headers } = readFlash(requestWith(`theme=dark; ${setCookie.split(";")[0]}`));
    expect(flash).toMatchObject({ title: "Signed out" });
    expect(headers.getSetCookie()).toEqual([
      "lk_flash=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax",
    ]);
  });

  it("give each message its own id, so the same message twice shows twice", () => {
    const a = readFlash(requestWith(flashCookie("signed-out", false).split(";")[0])).flash;
    const b = readFlash(requestWith(flashCookie("signed-out", false).split(";")[0])).flash;
    expect(a?.id).not.toBe(b?.id);
  });

  it("is Secure on https", () => {
    expect(flashCookie("signed-out", true)).toContain("; Secure");
  });

  it("ignore unknown or malformed values but still clear them", () => {
    for (const cookie of ["lk_flash=hacked.000000000000", "lk_flash=<script>", "lk_flash="]) {
      const { flash, headers } = readFlash(requestWith(cookie));
      expect(flash, cookie).toBeNull();
      expect(headers.getSetCookie()).toHaveLength(1);
    }
    expect(readFlash(requestWith(null))).toMatchObject({ flash: null });
    expect(readFlash(requestWith(null)).headers.getSetCookie()).toEqual([]);
  });
});
