import { Transform, type Writable } from "node:stream";

/** A module preload React Router rendered (React hoists it into the head). */
const PRELOAD_TAG = /<link rel="modulepreload"[^<>]*>/g;
const HREF = /\shref="([^"]*)"/;
/** React Router's inline module script, held back as a data block until the page has painted. */
export const PARKED_MODULE_TYPE = "lk/module";
const HEAD_END = "</head>";
const SCRIPT_END = "</script>";
/** React Router's inline module script's opening tag (it renders `nonce`, `type` and `async`). */
const MODULE_SCRIPT = /<script\b(?![^<>]*\ssrc=)[^<>]*?\stype="module"[^<>]*>/;
/** An opening tag cut by a chunk's end longer than this isn't one looked for: it passes. */
const LONGEST_TAG = 1024;

/**
 * The script run right after the parked module script (decision 0032), given the module
 * preloads taken out of the head: once the browser reports the page's first contentful paint, it
 * adds those preloads back and puts a live copy of the parked script in its place, both with this
 * script's nonce (each preload's `href` as React rendered it, so React, hydrating the head, takes
 * it for its own). A browser that reports no paints, or a paint that takes longer, starts it 2 s
 * after this script ran; a hidden page paints nothing and starts at once. Written small: it is in
 * every page's HTML.
 */
export function scriptLoader(preloads: string[]): string {
  const hrefs = JSON.stringify(preloads).replaceAll("<", "\\u003c");
  return (
    "(function(){var d=document,c=d.currentScript,p=c.previousElementSibling,n=c.nonce,k=0," +
    "P=self.PerformanceObserver;function g(){if(k)return;k=1;" +
    `${hrefs}.forEach(function(h){var x=d.createElement('link');x.rel='modulepreload';` +
    "x.setAttribute('href',h);x.nonce=n;d.head.append(x)});" +
    "var s=d.createElement('script');s.type='module';s.nonce=n;s.text=p.text;p.replaceWith(s)}" +
    "if(d.visibilityState!='visible')return g();setTimeout(g,2e3);" +
    "P&&P.supportedEntryTypes.indexOf('paint')>=0&&new P(function(l){" +
    "l.getEntriesByName('first-contentful-paint').length&&g()}).observe({type:'paint',buffered:!0})})()"
  );
}

/** Where a tag cut by the text's end begins (the text's end if none is, or it is too long). */
function openTagAt(text: string): number {
  const lastTag = text.lastIndexOf("<");
  const open =
    lastTag !== -1 && !text.includes(">", lastTag) && text.length - lastTag <= LONGEST_TAG;
  return open ? lastTag : text.length;
}

/** An attribute's value as React escaped it, read back. */
function unescapeAttribute(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** Where in the head `headScript` goes: before the first of these (or the head's end). */
const SCRIPT_BEFORE = /<link\b|<script\b|<style\b|<\/head>/;

/**
 * The rendered page with its scripts started after its first paint (decision 0032, which
 * supersedes 0030 and amends 0010). On a phone the ~140 KB of scripts otherwise share the
 * connection with the render-blocking stylesheet and the first product image, and compile before
 * the paint when they arrive first. React Router renders its `<link rel="modulepreload">`s (React
 * hoists them into the head) and its inline module script with no way to defer them, so the
 * stream is rewritten:
 *
 * - the head's module preloads are taken out;
 * - the first inline `<script type="module">` after the head (React Router's) gets a type no
 *   browser runs (PARKED_MODULE_TYPE), and scriptLoader() follows it, with the page's nonce and
 *   the preloads' addresses: after the paint it puts both back.
 *
 * Taps made before the page hydrates are replayed once it has (decision 0031): `headScript`, the
 * early-taps script, goes in the head before its first link, script or style, as an inline script
 * after a stylesheet still loading would hold the parser until the stylesheet arrives.
 *
 * The text is read as latin1 so that a chunk ending inside a multi-byte character is carried over
 * byte for byte; a tag cut by a chunk's end waits for the next chunk. Everything after the loader
 * passes untouched.
 */
export function scriptsAfterPaint(headScript = "", nonce = ""): Transform {
  let carry = "";
  let state: "head" | "seek" | "script" | "done" = "head";
  let headSeen = false;
  const preloads: string[] = [];
  /** `text` without the module preloads, their addresses kept for the loader. */
  const takePreloads = (text: string): string =>
    text.replace(PRELOAD_TAG, (tag) => {
      const href = HREF.exec(tag)?.[1];
      if (href) preloads.push(unescapeAttribute(href));
      return "";
    });
  // Written as the UTF-8 bytes it is, in the latin1 text.
  let script = Buffer.from(headScript, "utf8").toString("latin1");
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  /** `text` with the script put in, once, after `<head>` and before the first SCRIPT_BEFORE. */
  const withScript = (text: string): string => {
    if (!script) return text;
    let from = 0;
    if (!headSeen) {
      const head = text.indexOf("<head>");
      if (head === -1) return text;
      headSeen = true;
      from = head + "<head>".length;
    }
    const at = text.slice(from).search(SCRIPT_BEFORE);
    if (at === -1) return text;
    const out = text.slice(0, from + at) + script + text.slice(from + at);
    script = "";
    return out;
  };
  /** Rewrites `text` (after what came before), keeping in `carry` what must wait for more. */
  const rewrite = (input: string): string => {
    let text = input;
    let out = "";
    for (;;) {
      if (state === "head") {
        const end = text.indexOf(HEAD_END);
        if (end === -1) {
          const cut = openTagAt(text);
          carry = text.slice(cut);
          return out + takePreloads(withScript(text.slice(0, cut)));
        }
        out += takePreloads(withScript(text.slice(0, end + HEAD_END.length)));
        text = text.slice(end + HEAD_END.length);
        state = "seek";
      } else if (state === "seek") {
        const found = MODULE_SCRIPT.exec(text);
        if (!found) {
          const cut = openTagAt(text);
          carry = text.slice(cut);
          return out + text.slice(0, cut);
        }
        const tag = found[0].replace('type="module"', `type="${PARKED_MODULE_TYPE}"`);
        out += text.slice(0, found.index) + tag;
        text = text.slice(found.index + found[0].length);
        state = "script";
      } else if (state === "script") {
        const end = text.indexOf(SCRIPT_END);
        if (end === -1) {
          const cut = Math.max(0, text.length - (SCRIPT_END.length - 1));
          carry = text.slice(cut);
          return out + text.slice(0, cut);
        }
        const loader = `<script${nonceAttribute}>${scriptLoader(preloads)}</script>`;
        out += text.slice(0, end + SCRIPT_END.length) + loader;
        text = text.slice(end + SCRIPT_END.length);
        state = "done";
      } else {
        carry = "";
        return out + text;
      }
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (state === "done") return callback(null, chunk);
      const out = rewrite(carry + chunk.toString("latin1"));
      if (!out) return callback();
      callback(null, Buffer.from(out, "latin1"));
    },
    flush(callback) {
      if (carry) {
        this.push(Buffer.from(state === "head" ? takePreloads(carry) : carry, "latin1"));
      }
      callback();
    },
  });
}

/**
 * React's stream piped into `body` through scriptsAfterPaint(). `.pipe` doesn't tell the source
 * when its destination goes away, and React only stops a render when the stream it writes to
 * closes: so when `body` closes (the client left), the transform is destroyed too, and React stops
 * rendering at once instead of at its abort timer (review, 2026-11-27).
 */
export function pipeWithScriptsAfterPaint<T extends Writable>(
  pipe: (destination: Writable) => unknown,
  body: T,
  headScript = "",
  nonce = "",
): T {
  const transform = scriptsAfterPaint(headScript, nonce);
  body.once("close", () => transform.destroy());
  pipe(transform);
  return transform.pipe(body);
}
