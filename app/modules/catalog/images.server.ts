import { availableParallelism } from "node:os";
import sharp from "sharp";
import type { FileStorage } from "~/adapters/storage/types.ts";
import type { ProductImage } from "~/db/schema.ts";
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
  await withEncodeSlot(async () => {
    // Decode (or rasterise an SVG) once; every variant is encoded from these pixels.
    const largest = Math.max(...IMAGE_WIDTHS);
    const { data, info } = await sharp(typeof input === "string" ? Buffer.from(input) : input, {
      limitInputPixels: 40_000_000,
    })
      .rotate()
      .resize({ width: largest, height: largest, fit: "cover" })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = () =>
      sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

    const jobs: Promise<void>[] = [];
    for (const width of IMAGE_WIDTHS) {
      for (const format of IMAGE_FORMATS) {
        const resized = width === largest ? pixels() : pixels().resize({ width });
        const encoded =
          format === "avif"
            ? resized.avif({ quality: 50, effort: 1 })
            : resized.webp({ quality: 78 });
        jobs.push(
          encoded.toBuffer().then(async (bytes) => {
            await storage.put(storagePath + variantSuffix(width, format), bytes, `image/${format}`);
            // The plain storage path holds the largest WebP, for browsers and links without srcset.
            if (width === largest && format === "webp")
              await storage.put(storagePath, bytes, "image/webp");
          }),
        );
      }
    }
    await Promise.all(jobs);
  });
  return { url: storage.url(storagePath), storagePath };
}

export async function deleteImageVariants(storage: FileStorage, storagePath: string) {
  const paths = [storagePath];
  for (const width of IMAGE_WIDTHS)
    for (const format of IMAGE_FORMATS) paths.push(storagePath + variantSuffix(width, format));
  await Promise.all(paths.map((p) => storage.delete(p)));
}
