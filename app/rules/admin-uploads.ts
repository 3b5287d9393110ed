/*
 * Admin image uploads (SPEC.md §2 "Admin image upload", §7 "File storage"): what the server
 * accepts and where it keeps it. Pure: no I/O, usable in the browser and on the server.
 *
 * A file is accepted by its content (magic bytes), never by its name or the browser's type: JPEG,
 * PNG, WebP and AVIF only. It is stored re-encoded (metadata stripped) as WebP variants under
 * `products/{productId}/{timestamp}_{filename}`, the filename sanitised and given `.webp`.
 */
import { isUuid } from "./ids.ts";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_LABEL = "10 MB";
/** The most images one product keeps. */
export const MAX_PRODUCT_IMAGES = 20;
/** Browser file picker hint only; the server decides by content. */
export const UPLOAD_ACCEPT = "image/jpeg,image/png,image/webp,image/avif";

export const uploadText = {
  failedTitle: "Image upload failed",
  cancelledTitle: "Upload cancelled",
  cancelledDescription: "No changes were saved.",
  tooLarge: `This image is too large. The limit is ${MAX_UPLOAD_LABEL}.`,
  notAnImage: "Only JPEG, PNG, WebP and AVIF images can be uploaded.",
  unreadable: "This image could not be read. Please try another file.",
  noFile: "Please choose an image to upload.",
  badProduct: "This upload is not for a valid product.",
  badScope: "Unknown upload scope.",
  badPath: "This file can't be removed.",
} as const;

export type ImageKind = "jpeg" | "png" | "webp" | "avif";

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** The image type the bytes begin with, or null when they are not JPEG, PNG, WebP or AVIF. */
export function sniffImageType(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") {
    return "webp";
  }
  // ISO base media file: [size][ftyp][major brand][minor version][compatible brands…]
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
    const end = Math.min(bytes.length, Math.max(16, boxSize), 4096);
    const brands = [ascii(bytes, 8, 12)];
    for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
    if (brands.includes("avif") || brands.includes("avis")) return "avif";
  }
  return null;
}

/**
 * A safe file name: the original's stem lowercased, anything but letters, digits, dots, dashes
 * and underscores made a dash, at most 80 characters, and `.webp` (what is stored).
 */
export function sanitizeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const dot = base.lastIndexOf(".");
  const stem = (dot > 0 ? base.slice(0, dot) : base)
    .toLowerCase()
    // No dots in the stem: "x.w320.webp" is how a stored image's size variants are named.
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 80)
    .replace(/[-_]+$/g, "");
  return `${stem || "image"}.webp`;
}

/** `products/{productId}/{timestamp}_{filename}`. */
export function productUploadPath(productId: string, filename: string, now = Date.now()): string {
  return `products/${productId.toLowerCase()}/${now}_${sanitizeFilename(filename)}`;
}

// The original upload only: a variant ("…_name.webp.w320.webp") never matches.
const UPLOAD_FILE = /^\d{10,16}_[a-z0-9][a-z0-9_-]{0,79}\.webp$/;

/**
 * True when `storagePath` is an upload of this product as productUploadPath makes them (not a
 * variant, not another product's, nothing that climbs out of the folder).
 */
export function isProductUploadPath(productId: string, storagePath: unknown): boolean {
  if (typeof storagePath !== "string" || !isUuid(productId)) return false;
  const prefix = `products/${productId.toLowerCase()}/`;
  if (!storagePath.startsWith(prefix)) return false;
  const file = storagePath.slice(prefix.length);
  return UPLOAD_FILE.test(file) && !file.includes("..");
}

/** The product an upload path belongs to, or null for anything that isn't one. */
export function productIdOfUploadPath(storagePath: unknown): string | null {
  if (typeof storagePath !== "string") return null;
  const match = /^products\/([0-9a-f-]{36})\//.exec(storagePath);
  if (!match || !isProductUploadPath(match[1], storagePath)) return null;
  return match[1];
}
