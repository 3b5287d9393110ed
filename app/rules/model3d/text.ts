/**
 * Reading text formats (ASCII STL, OBJ, ASCII PLY, 3MF's XML) straight from the file's bytes,
 * without decoding them into one big string: whitespace, words and decimal numbers.
 */

const POW10 = new Float64Array(23);
for (let i = 0, p = 1; i < 23; i++, p *= 10) POW10[i] = p;

/** True for space, tab, LF, VT, FF and CR. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** True when the first `limit` bytes hold no control characters that text files never contain. */
export function looksLikeText(bytes: Uint8Array, limit = 4096): boolean {
  const end = Math.min(bytes.length, limit);
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c < 32 && !(c >= 9 && c <= 13) && c !== 26) return false;
  }
  return true;
}

/** A cursor over bytes. `pos` is the next byte to read; `end` the end of the text. */
export class Scanner {
  readonly bytes: Uint8Array;
  pos: number;
  end: number;

  constructor(bytes: Uint8Array, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  /** Skips all whitespace, line ends included. */
  skipSpace(): void {
    const b = this.bytes;
    let p = this.pos;
    const end = this.end;
    while (p < end) {
      const c = b[p];
      if (c !== 32 && (c < 9 || c > 13)) break;
      p++;
    }
    this.pos = p;
  }

  /** Skips spaces and tabs, not line ends. */
  skipBlanks(): void {
    const b = this.bytes;
    let p = this.pos;
    while (p < this.end && (b[p] === 32 || b[p] === 9)) p++;
    this.pos = p;
  }

  /** Moves to the first byte after the next LF (or to the end). */
  skipLine(): void {
    const lf = this.bytes.indexOf(10, this.pos);
    this.pos = lf < 0 || lf >= this.end ? this.end : lf + 1;
  }

  /** Skips one run of non-whitespace bytes; false when there was none. */
  skipToken(): boolean {
    const b = this.bytes;
    const start = this.pos;
    let p = start;
    while (p < this.end) {
      const c = b[p];
      if (c === 32 || (c >= 9 && c <= 13)) break;
      p++;
    }
    this.pos = p;
    return p > start;
  }

  /**
   * Reads `word` (lower-case ASCII) case-insensitively when it is next and ends at whitespace or
   * the end of the text; otherwise reads nothing and returns false.
   */
  word(word: string): boolean {
    const b = this.bytes;
    const p = this.pos;
    const n = word.length;
    if (p + n > this.end) return false;
    for (let i = 0; i < n; i++) {
      if ((b[p + i] | 0x20) !== word.charCodeAt(i)) return false;
    }
    if (p + n < this.end && !isSpace(b[p + n])) return false;
    this.pos = p + n;
    return true;
  }

  /** The next run of non-whitespace bytes as a string (for headers; not for bulk data). */
  token(): string {
    const start = this.pos;
    this.skipToken();
    let s = "";
    for (let i = start; i < this.pos; i++) s += String.fromCharCode(this.bytes[i]);
    return s;
  }

  /**
   * Reads a decimal number (optional sign, digits, optional fraction, optional exponent). Returns
   * NaN and reads nothing when there is no number here; "nan" and "inf" are not numbers either.
   * The caller checks what follows (whitespace, '/', a quote, …).
   */
  number(): number {
    const b = this.bytes;
    const end = this.end;
    let p = this.pos;
    let negative = false;
    let c = p < end ? b[p] : 0;
    if (c === 45 || c === 43) {
      negative = c === 45;
      p++;
    }
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    let any = false;
    while (p < end) {
      const d = b[p] - 48;
      if (d < 0 || d > 9) break;
      any = true;
      if (digits < 17) {
        mantissa = mantissa * 10 + d;
        if (mantissa !== 0) digits++;
      } else {
        scale++;
      }
      p++;
    }
    if (p < end && b[p] === 46) {
      p++;
      while (p < end) {
        const d = b[p] - 48;
        if (d < 0 || d > 9) break;
        any = true;
        if (digits < 17) {
          mantissa = mantissa * 10 + d;
          if (mantissa !== 0) digits++;
          scale--;
        }
        p++;
      }
    }
    if (!any) return Number.NaN;
    if (p < end && (b[p] | 0x20) === 101) {
      let q = p + 1;
      let expNegative = false;
      c = q < end ? b[q] : 0;
      if (c === 45 || c === 43) {
        expNegative = c === 45;
        q++;
      }
      let exponent = 0;
      let expDigits = 0;
      while (q < end) {
        const d = b[q] - 48;
        if (d < 0 || d > 9) break;
        if (exponent < 100000) exponent = exponent * 10 + d;
        expDigits++;
        q++;
      }
      if (expDigits > 0) {
        p = q;
        scale += expNegative ? -exponent : exponent;
      }
    }
    this.pos = p;
    let value = mantissa;
    if (mantissa !== 0 && scale !== 0) {
      if (scale > 0) {
        value = scale <= 22 ? mantissa * POW10[scale] : mantissa * 10 ** scale;
      } else if (scale >= -22) {
        value = mantissa / POW10[-scale];
      } else {
        value = mantissa / 10 ** -scale;
      }
    }
    return negative ? -value : value;
  }

  /** Reads a whole number with an optional sign (no fraction); NaN when there is none. */
  integer(): number {
    const b = this.bytes;
    let p = this.pos;
    let negative = false;
    const c = p < this.end ? b[p] : 0;
    if (c === 45 || c === 43) {
      negative = c === 45;
      p++;
    }
    const start = p;
    let value = 0;
    while (p < this.end) {
      const d = b[p] - 48;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
      p++;
    }
    if (p === start || value > Number.MAX_SAFE_INTEGER) return Number.NaN;
    this.pos = p;
    return negative ? -value : value;
  }

  /** True when the next byte is whitespace or the end of the text. */
  atBoundary(): boolean {
    return this.pos >= this.end || isSpace(this.bytes[this.pos]);
  }
}
