import { Transform, type Writable } from "node:stream";

const PRELOAD = '<link rel="modulepreload"';
const LOW = ' fetchpriority="low"';
const HEAD_END = "</head>";
/** The longest text a chunk may end inside of and still have to be matched. */
const KEEP = Math.max(PRELOAD.length, HEAD_END.length) - 1;

/** The head's module preloads, marked low priority. */
export function withLowPriorityPreloads(head: string): string {
  return head.replaceAll(PRELOAD, PRELOAD + LOW);
}

/** Where in the head `headScript` goes: before the first of these (or the head's end). */
const SCRIPT_BEFORE = /<link\b|<script\b|<style\b|<\/head>/;

/**
 * The rendered page with React Router's `<link rel="modulepreload">`s in the head fetched at low
 * priority (decision 0010, amended 2026-11-27). The browser then gives the render-blocking
 * stylesheet and the first product image the connection before the ~140 KB of scripts, which still
 * start in the same round trip and hydrate the page as before. React Router renders those links
 * with no way to pass attributes, so they are marked in the stream: only the head is looked at
 * (the part before `</head>`), the rest passes untouched. The text is read as latin1 so that a
 * chunk ending inside a multi-byte character is carried over byte for byte.
 *
 * `headScript` (the early-taps script, decision 0031) goes in the head before its first link,
 * script or style: an inline script after a stylesheet still loading would hold the parser until
 * the stylesheet arrives.
 */
export function lowPriorityPreloads(headScript = ""): Transform {
  let carry = "";
  let inHead = true;
  let headSeen = false;
  // Written as the UTF-8 bytes it is, in the latin1 text.
  let script = Buffer.from(headScript, "utf8").toString("latin1");
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
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!inHead) return callback(null, chunk);
      const text = carry + chunk.toString("latin1");
      const end = text.indexOf(HEAD_END);
      if (end !== -1) {
        inHead = false;
        carry = "";
        const head = withScript(text.slice(0, end + HEAD_END.length));
        const out = withLowPriorityPreloads(head) + text.slice(end + HEAD_END.length);
        return callback(null, Buffer.from(out, "latin1"));
      }
      // A tag cut by the chunk's end waits for the next chunk.
      const lastTag = text.lastIndexOf("<");
      const cut = lastTag !== -1 && lastTag >= text.length - KEEP ? lastTag : text.length;
      carry = text.slice(cut);
      if (cut === 0) return callback();
      const ready = withScript(text.slice(0, cut));
      callback(null, Buffer.from(withLowPriorityPreloads(ready), "latin1"));
    },
    flush(callback) {
      if (carry) this.push(Buffer.from(withLowPriorityPreloads(carry), "latin1"));
      callback();
    },
  });
}

/**
 * React's stream piped into `body` through lowPriorityPreloads(). `.pipe` doesn't tell the source
 * when its destination goes away, and React only stops a render when the stream it writes to
 * closes: so when `body` closes (the client left), the transform is destroyed too, and React stops
 * rendering at once instead of at its abort timer (review, 2026-11-27).
 */
export function pipeWithLowPriorityPreloads<T extends Writable>(
  pipe: (destination: Writable) => unknown,
  body: T,
  headScript = "",
): T {
  const transform = lowPriorityPreloads(headScript);
  body.once("close", () => transform.destroy());
  pipe(transform);
  return transform.pipe(body);
}
