/**
 * A signed-in customer's page made from a visitor's page in the page cache (decision 0026), by
 * exact string replacement: the account area, the hearts of their favourites, and their data for
 * hydration. Every replacement must find exactly what it expects; otherwise the result is null
 * and the caller renders the page in full (never a half-personalised page).
 */

/** The script element the browser reads the customer's data from (app/lib/root-data.ts). */
export function personalScript(id: string, data: unknown): string {
  // Not executed (a data block), so the cached page's hashed script policy still holds; escaped so
  // that nothing in it can end the element or start another.
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The position of the only occurrence of `part` in `html`, or -1 when it occurs 0 or 2+ times. */
function onlyIndexOf(html: string, part: string, from = 0, to = html.length): number {
  const at = html.indexOf(part, from);
  if (at === -1 || at + part.length > to) return -1;
  const again = html.indexOf(part, at + 1);
  return again !== -1 && again + part.length <= to ? -1 : at;
}

export type Splice = { at: number; end: number; text: string };

/**
 * The visitor's account area replaced by the customer's: `visitor` must occur exactly once, and
 * only inside the page's `<header`…`</header>`.
 */
export function accountAreaSplice(html: string, visitor: string, personal: string): Splice | null {
  const start = html.indexOf("<header");
  const end = html.indexOf("</header>", start);
  if (start === -1 || end === -1) return null;
  const at = onlyIndexOf(html, visitor, start, end);
  if (at === -1 || html.indexOf(visitor, end) !== -1 || html.lastIndexOf(visitor, start) !== -1) {
    return null;
  }
  return { at, end: at + visitor.length, text: personal };
}

/**
 * Each heart of a favourite product on the page turned from "Add" to "Remove": every
 * `<button … data-favourite-id="<id>">…</button>` of the ids. In each, the unpressed state, the
 * "Add … to favourites" label and the unfilled icon must each occur exactly once.
 */
export function heartSplices(
  html: string,
  ids: readonly string[],
  icons: { unfilled: string; filled: string },
): Splice[] | null {
  const splices: Splice[] = [];
  for (const id of ids) {
    if (!/^[0-9a-f-]{36}$/.test(id)) return null;
    const marker = ` data-favourite-id="${id}"`;
    for (let found = html.indexOf(marker); found !== -1; found = html.indexOf(marker, found + 1)) {
      const at = html.lastIndexOf("<button", found);
      const close = html.indexOf("</button>", found);
      if (at === -1 || close === -1) return null;
      const end = close + "</button>".length;
      const button = html.slice(at, end);
      // The marker belongs to this button's opening tag.
      const tagEnd = button.indexOf(">");
      if (found - at > tagEnd) return null;
      const pressed = onlyIndexOf(button, ' aria-pressed="false"');
      const label = onlyIndexOf(button, ' aria-label="Add ');
      const icon = onlyIndexOf(button, icons.unfilled);
      if (pressed === -1 || label === -1 || icon === -1 || pressed > tagEnd || label > tagEnd) {
        return null;
      }
      // "Add <name> to favourites" → "Remove <name> from favourites" (the name as it stands).
      const labelEnd = button.indexOf(' to favourites"', label);
      if (labelEnd === -1 || labelEnd > tagEnd) return null;
      const relabelled = `${button.slice(0, label)} aria-label="Remove ${button.slice(
        label + ' aria-label="Add '.length,
        labelEnd,
      )} from favourites"${button.slice(labelEnd + ' to favourites"'.length)}`;
      const text = relabelled
        .replace(' aria-pressed="false"', ' aria-pressed="true"')
        .replace(icons.unfilled, icons.filled);
      splices.push({ at, end, text });
    }
  }
  return splices;
}

/** The data script, placed just before `</head>` (which must occur once). */
export function headSplice(html: string, script: string): Splice | null {
  const at = onlyIndexOf(html, "</head>");
  return at === -1 ? null : { at, end: at, text: script };
}

/**
 * The page with the splices applied, as UTF-8 bytes ready to compress; null when any two overlap.
 * `bytes` is the page's own UTF-8 encoding (kept with the stored page): the unchanged stretches
 * are copied from it rather than a 70 KB string being built and encoded again per answer, which
 * cost a personalised `/products` about 1.2 ms of its 4.3 (docs/performance.md, 2026-11-27).
 */
export function applySplices(
  html: string,
  splices: Splice[],
  bytes: Buffer = Buffer.from(html, "utf8"),
): Buffer | null {
  const ordered = [...splices].sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  let fromByte = 0;
  for (const s of ordered) {
    if (s.at < from) return null;
    // Character offsets into byte offsets: only the stretches between splices are measured.
    const atByte = fromByte + Buffer.byteLength(html.slice(from, s.at), "utf8");
    parts.push(bytes.subarray(fromByte, atByte), Buffer.from(s.text, "utf8"));
    fromByte = atByte + Buffer.byteLength(html.slice(s.at, s.end), "utf8");
    from = s.end;
  }
  if (fromByte > bytes.length) return null;
  parts.push(bytes.subarray(fromByte));
  return Buffer.concat(parts);
}
