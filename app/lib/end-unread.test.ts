import { describe, expect, it } from "vitest";
import { endUnread } from "./end-unread.ts";

describe("endUnread", () => {
  it("drops an answer's body, so its request ends", async () => {
    const res = new Response("not read", { status: 500 });
    endUnread(res);
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow();
  });

  it("leaves an answer without a body as it is", () => {
    const res = new Response(null, { status: 204 });
    expect(() => endUnread(res)).not.toThrow();
  });
});
