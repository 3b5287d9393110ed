/*
 * Text as the shop accepts it, from any form, query string or JSON body (issue 20): Unicode in
 * its composed form (NFC, so "é" typed two ways is one word to search and compare), and no control
 * characters. PostgreSQL refuses NUL in text outright, and the others (escape codes, bidi-less C1
 * controls) have no place in a name, an address or a review; tab and line breaks are kept, since
 * messages and descriptions have lines.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const UNUSUAL_CHARACTERS =
  "Some of the text contains characters the shop can't accept (such as control characters). Please remove them and try again.";

/** Whether the text has a character the shop refuses. */
export const hasControlCharacters = (value: string) => CONTROL.test(value);

/** The text in Unicode's composed form, or null when it has a character the shop refuses. */
export function cleanText(value: string): string | null {
  if (hasControlCharacters(value)) return null;
  return value.normalize("NFC");
}

/**
 * Every string inside a parsed JSON value, cleaned; null when one of them (or one of the keys) has
 * a character the shop refuses.
 */
export function cleanJson(value: unknown): { value: unknown } | null {
  if (typeof value === "string") {
    const cleaned = cleanText(value);
    return cleaned === null ? null : { value: cleaned };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const cleaned = cleanJson(item);
      if (!cleaned) return null;
      out.push(cleaned.value);
    }
    return { value: out };
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleaned = cleanJson(item);
      if (!cleaned || hasControlCharacters(key)) return null;
      out[key.normalize("NFC")] = cleaned.value;
    }
    return { value: out };
  }
  return { value };
}
