import { availableParallelism } from "node:os";
import sharp from "sharp";
import type { FileStorage } from "~/adapters/storage/types.ts";
import type { ProductImage } from "~/db/schema.ts";
import { type ImageKind, sniffImageType } from "~/rules/admin-uploads.ts";
import { IMAGE_FORMATS, IMAGE_WIDTHS, variantSuffix } from "~/rules/images.ts";

// AVIF encoding is CPU-heavy: at most this many images are encoded at once.
const MAX_CONCURRENT_ENCODES = Math.max(1, availableParallelism());
let running = 0;
const waiting: Array<() => void> = [];

async function withEncodeSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_ENCODES) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Makes the responsive variants of an image once (metadata stripped) and stores them beside
 * `storagePath`, which itself holds the 640 px WebP.
 */
export async function storeImageVariants(
  storage: FileStorage,
  storagePath: string,
  input: Buffer | string,
): Promise<ProductImage> {
  await encodeVariants(storage, storagePath, input, { writeMain: true, only: null });
  return { url: storage.url(storagePath), storagePath };
}

/**
 * The "image-variants" job: an image that arrived without its variants (copied across by an
 * import) gets the missing ones, made from the stored file, which itself is left as it is.
 * Until then the shop serves the stored file in their place.
 */
export async function storeMissingVariants(
  storage: FileStorage,
  storagePath: string,
): Promise<number> {
  const wanted = IMAGE_WIDTHS.flatMap((width) =>
    IMAGE_FORMATS.map((format) => ({ width, format })),
  );
  const missing: typeof wanted = [];
  for (const v of wanted) {
    if (!(await storage.exists(storagePath + variantSuffix(v.width, v.format)))) missing.push(v);
  }
  if (missing.length === 0) return 0;
  const original = await storage.get(storagePath);
  if (!original) return 0;
  await encodeVariants(storage, storagePath, original, { writeMain: false, only: missing });
  return missing.length;
}

async function encodeVariants(
  storage: FileStorage,
  storagePath: string,
  input: Buffer | string,
  options: {
    writeMain: boolean;
    only: Array<{ width: number; format: (typeof IMAGE_FORMATS)[number] }> | null;
  },
): Promise<void> {
  await withEncodeSlot(async () => {
    // Decode (or rasterise an SVG) once; every variant is encoded from these pixels.
    const largest = Math.max(...IMAGE_WIDTHS);
    const { data, info } = await sharp(typeof input === "string" ? Buffer.from(input) : input, {
      limitInputPixels: 40_000_000,
    })
      .rotate()
      .resize({ width: largest, height: largest, fit: "cover" })
      // Transparent areas become white (as on the shop's cards), not black.
      .flatten({ background: "#ffffff" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = () =>
      sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

    const jobs: Promise<void>[] = [];
    for (const width of IMAGE_WIDTHS) {
      for (const format of IMAGE_FORMATS) {
        if (options.only && !options.only.some((v) => v.width === width && v.format === format)) {
          continue;
        }
        const resized = width === largest ? pixels() : pixels().resize({ width });
        const encoded =
          format === "avif"
            ? resized.avif({ quality: 50, effort: 1 })
            : resized.webp({ quality: 78 });
        jobs.push(
          encoded.toBuffer().then(async (bytes) => {
            await storage.put(storagePath + variantSuffix(width, format), bytes, `image/${format}`);
            // The plain storage path holds the largest WebP, for browsers and links without srcset.
            if (options.writeMain && width === largest && format === "webp")
              await storage.put(storagePath, bytes, "image/webp");
          }),
        );
      }
    }
    await Promise.all(jobs);
  });
}

export async function deleteImageVariants(storage: FileStorage, storagePath: string) {
  const paths = [storagePath];
  for (const width of IMAGE_WIDTHS)
    for (const format of IMAGE_FORMATS) paths.push(storagePath + variantSuffix(width, format));
  await Promise.all(paths.map((p) => storage.delete(p)));
}

/** Why an uploaded file was refused: not an accepted image type, or not decodable. */
export class ImageRejectedError extends Error {
  readonly reason: "not-an-image" | "unreadable";
  constructor(reason: "not-an-image" | "unreadable") {
    super(reason === "not-an-image" ? "not an accepted image type" : "image could not be decoded");
    this.name = "ImageRejectedError";
    this.reason = reason;
  }
}

/**
 * Stores an uploaded image: accepted only when its content is JPEG, PNG, WebP or AVIF (magic
 * bytes, then a full decode), re-encoded without metadata into the responsive variants once. If
 * anything fails, nothing is left behind.
 */
export async function storeUploadedImage(
  storage: FileStorage,
  storagePath: string,
  bytes: Buffer,
): Promise<ProductImage & { kind: ImageKind }> {
  const kind = sniffImageType(bytes);
  if (!kind) throw new ImageRejectedError("not-an-image");
  try {
    // The declared type must agree with what the decoder finds (a PNG header on other data fails).
    const meta = await sharp(bytes, { limitInputPixels: 40_000_000 }).metadata();
    const found = meta.format === "heif" ? "avif" : meta.format;
    if (found !== kind || !meta.width || !meta.height) throw new Error(`decoded as ${meta.format}`);
  } catch {
    throw new ImageRejectedError("unreadable");
  }
  try {
    return { ...(await storeImageVariants(storage, storagePath, bytes)), kind };
  } catch (error) {
    await deleteImageVariants(storage, storagePath).catch(() => undefined);
    if (
      error instanceof Error &&
      /unsupported|corrupt|premature|bad|invalid/i.test(error.message)
    ) {
      throw new ImageRejectedError("unreadable");
    }
    throw error;
  }
}
