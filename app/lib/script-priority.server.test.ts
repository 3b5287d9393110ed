import { PassThrough, type Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  lowPriorityPreloads,
  pipeWithLowPriorityPreloads,
  withLowPriorityPreloads,
} from "./script-priority.server.ts";

const page =
  '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/><title>Décor — ₹399</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/framework-b.js" nonce="n"/>' +
  '<link rel="stylesheet" href="/assets/shell-c.css#"/></head>' +
  '<body><p>Lotus — ₹499</p><link rel="modulepreload" href="/in-body.js"/></body></html>';

const expected =
  '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/><title>Décor — ₹399</title>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/entry.client-a.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/framework-b.js" nonce="n"/>' +
  '<link rel="stylesheet" href="/assets/shell-c.css#"/></head>' +
  '<body><p>Lotus — ₹499</p><link rel="modulepreload" href="/in-body.js"/></body></html>';

async function through(chunks: Buffer[], headScript = ""): Promise<string> {
  const t = lowPriorityPreloads(headScript);
  const out: Buffer[] = [];
  t.on("data", (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => t.on("end", resolve));
  for (const c of chunks) t.write(c);
  t.end();
  await ended;
  return Buffer.concat(out).toString("utf8");
}

describe("low-priority module preloads", () => {
  it("marks the head's module preloads only", () => {
    expect(withLowPriorityPreloads('<link rel="modulepreload" href="/a.js"/>')).toBe(
      '<link rel="modulepreload" fetchpriority="low" href="/a.js"/>',
    );
    expect(withLowPriorityPreloads('<link rel="stylesheet" href="/a.css"/>')).toBe(
      '<link rel="stylesheet" href="/a.css"/>',
    );
  });

  it("gives the same bytes whichever byte the stream is cut at", async () => {
    const bytes = Buffer.from(page, "utf8");
    expect(await through([bytes])).toBe(expected);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected);
    }
  });

  it("gives the same bytes when every byte is a chunk of its own", async () => {
    const bytes = Buffer.from(page, "utf8");
    const singles = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await through(singles)).toBe(expected);
  });

  it("puts the early-taps script before the head's first link, whichever byte the stream is cut at", async () => {
    // Before any stylesheet, so the parser never waits for one to run it; written as UTF-8.
    const script = '<script nonce="n">taps("₹")</script>';
    const withScript = expected.replace("</title><link", `</title>${script}<link`);
    const bytes = Buffer.from(page, "utf8");
    expect(await through([bytes], script)).toBe(withScript);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)], script)).toBe(withScript);
    }
    // A head with no link, script or style: at its end.
    const bare = "<!DOCTYPE html><html><head><title>₹</title></head><body></body></html>";
    expect(await through([Buffer.from(bare, "utf8")], script)).toBe(
      bare.replace("</head>", `${script}</head>`),
    );
  });

  it("passes a stream without a head through whole", async () => {
    const text = '<p>₹1</p><link rel="modulepre';
    expect(await through([Buffer.from(text, "utf8")])).toBe(text);
  });

  it("tells the render its destination closed when the response's body closes (a client leaving)", async () => {
    // As React's pipe: it stops rendering when the stream it writes to closes.
    let written: Writable | undefined;
    const body = new PassThrough();
    const renderStopped = new Promise<string>((resolve) => {
      pipeWithLowPriorityPreloads((destination) => {
        written = destination;
        destination.once("close", () => resolve("stopped"));
        destination.write(Buffer.from(page.slice(0, 40)));
      }, body);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written?.destroyed).toBe(false);
    body.destroy();
    expect(await renderStopped).toBe("stopped");
  });
});
