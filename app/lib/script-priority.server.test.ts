import { PassThrough, type Writable } from "node:stream";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  PARKED_MODULE_TYPE,
  pipeWithScriptsAfterPaint,
  scriptLoader,
  scriptsAfterPaint,
} from "./script-priority.server.ts";

// As React Router renders a page: preloads hoisted into the head, its inline scripts at the end
// of the body, the module script among them; text in UTF-8 with characters of several bytes.
const moduleScript = 'import * as route0 from "/assets/root-r.js";window.x="₹ <ok>";';
const page =
  '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/><title>Décor — ₹399</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/framework-b.js?v=1&amp;w=2" nonce="n"/>' +
  '<link rel="stylesheet" href="/assets/shell-c.css#"/></head>' +
  '<body><p>Lotus — ₹499 &lt;script type="module"&gt;</p><link rel="modulepreload" href="/in-body.js"/>' +
  '<script nonce="n">window.__context = {"a":"₹"};</script>' +
  `<script nonce="n" type="module" async="">${moduleScript}</script>` +
  '<script nonce="n">window.stream.enqueue("<b>");</script>' +
  '<script nonce="n" type="module">later()</script></body></html>';

const loader = `<script nonce="n">${scriptLoader(["/assets/entry.client-a.js", "/assets/framework-b.js?v=1&w=2"])}</script>`;
const expected =
  '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/><title>Décor — ₹399</title>' +
  '<link rel="stylesheet" href="/assets/shell-c.css#"/></head>' +
  '<body><p>Lotus — ₹499 &lt;script type="module"&gt;</p><link rel="modulepreload" href="/in-body.js"/>' +
  '<script nonce="n">window.__context = {"a":"₹"};</script>' +
  `<script nonce="n" type="${PARKED_MODULE_TYPE}" async="">${moduleScript}</script>${loader}` +
  '<script nonce="n">window.stream.enqueue("<b>");</script>' +
  '<script nonce="n" type="module">later()</script></body></html>';

async function through(chunks: Buffer[], headScript = ""): Promise<string> {
  const t = scriptsAfterPaint(headScript, "n");
  const out: Buffer[] = [];
  t.on("data", (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => t.on("end", resolve));
  for (const c of chunks) t.write(c);
  t.end();
  await ended;
  return Buffer.concat(out).toString("utf8");
}

describe("scripts started after the first paint", () => {
  it("takes the head's module preloads out and parks the first module script after the head, with the loader (given the preloads) right after it, whichever byte the stream is cut at", async () => {
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
    const withScript = expected.replace("</title>", `</title>${script}`);
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

  it("passes a stream without a head, or a page without a module script, through whole", async () => {
    const text = '<p>₹1</p><link rel="modulepre';
    expect(await through([Buffer.from(text, "utf8")])).toBe(text);
    const noModule =
      "<html><head></head><body><p>₹</p><script>x()</script><p>a &lt; b</p></body></html>";
    expect(await through([Buffer.from(noModule, "utf8")])).toBe(noModule);
    // A module script from a file, or another attribute ending in "type", is not React Router's.
    const notInline =
      '<html><head></head><body><script type="module" src="/a.js"></script>' +
      '<div data-type="module"></div></body></html>';
    expect(await through([Buffer.from(notInline, "utf8")])).toBe(notInline);
    // A body ending inside a tag: what was carried is sent at the end.
    const cutTag = '<html><head></head><body><script nonce="n" type="mod';
    expect(await through([Buffer.from(cutTag, "utf8")])).toBe(cutTag);
  });

  it("writes the loader without a nonce attribute when the page has none", async () => {
    const t = scriptsAfterPaint("", "");
    const out: Buffer[] = [];
    t.on("data", (c: Buffer) => out.push(c));
    t.end(Buffer.from('<head></head><script type="module">m()</script>'));
    await new Promise((resolve) => t.on("end", resolve));
    expect(Buffer.concat(out).toString()).toBe(
      `<head></head><script type="${PARKED_MODULE_TYPE}">m()</script><script>${scriptLoader([])}</script>`,
    );
  });

  it("tells the render its destination closed when the response's body closes (a client leaving)", async () => {
    // As React's pipe: it stops rendering when the stream it writes to closes.
    let written: Writable | undefined;
    const body = new PassThrough();
    const renderStopped = new Promise<string>((resolve) => {
      pipeWithScriptsAfterPaint((destination) => {
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

/** scriptLoader() run in a page of its own, as the browser would right after the parked script. */
function loaderPage(options: { visible?: boolean; paintEntries?: boolean } = {}) {
  const { visible = true, paintEntries = true } = options;
  const added: Array<{ rel: string; href: string; nonce: string }> = [];
  const started: Array<{ type: string; nonce: string; text: string }> = [];
  let timer: (() => void) | undefined;
  let observer: ((list: { getEntriesByName: (name: string) => unknown[] }) => void) | undefined;
  let observed: object | undefined;
  const parked = {
    text: 'import "/assets/root.js";',
    replaceWith: (script: { type: string; nonce: string; text: string }) => started.push(script),
  };
  const document = {
    visibilityState: visible ? "visible" : "hidden",
    currentScript: { previousElementSibling: parked, nonce: "n" },
    createElement: () => ({
      setAttribute(this: Record<string, string>, name: string, value: string) {
        this[name] = value;
      },
    }),
    head: { append: (link: { rel: string; href: string; nonce: string }) => added.push(link) },
  };
  class PerformanceObserver {
    static supportedEntryTypes = paintEntries ? ["paint", "navigation"] : ["navigation"];
    constructor(callback: typeof observer) {
      observer = callback;
    }
    observe(options: object) {
      observed = options;
    }
  }
  runInNewContext(scriptLoader(["/assets/entry.js", "/assets/react.js"]), {
    document,
    self: { PerformanceObserver },
    setTimeout: (f: () => void, ms: number) => {
      expect(ms).toBe(2_000);
      timer = f;
    },
  });
  const paint = (name: string) => observer?.({ getEntriesByName: (n) => (n === name ? [{}] : []) });
  return {
    added,
    started,
    observed: () => observed,
    paint,
    timer: () => timer?.(),
  };
}

describe("the loader that starts the scripts", () => {
  it("starts them once the browser reports the first contentful paint, once", () => {
    const p = loaderPage();
    expect(p.observed()).toEqual({ type: "paint", buffered: true });
    p.paint("first-paint");
    expect(p.started).toEqual([]);
    p.paint("first-contentful-paint");
    expect(p.added.map(({ rel, href, nonce }) => ({ rel, href, nonce }))).toEqual([
      { rel: "modulepreload", href: "/assets/entry.js", nonce: "n" },
      { rel: "modulepreload", href: "/assets/react.js", nonce: "n" },
    ]);
    expect(p.started.map(({ type, nonce, text }) => ({ type, nonce, text }))).toEqual([
      { type: "module", nonce: "n", text: 'import "/assets/root.js";' },
    ]);
    p.timer();
    p.paint("first-contentful-paint");
    expect(p.started).toHaveLength(1);
    expect(p.added).toHaveLength(2);
  });

  it("starts them at once on a hidden page, and after the timer if no paint comes or paints aren't reported", () => {
    expect(loaderPage({ visible: false }).started).toHaveLength(1);
    const late = loaderPage();
    late.timer();
    expect(late.started).toHaveLength(1);
    const noPaints = loaderPage({ paintEntries: false });
    expect(noPaints.observed()).toBeUndefined();
    expect(noPaints.started).toHaveLength(0);
    noPaints.timer();
    expect(noPaints.started).toHaveLength(1);
  });
});
