import { describe, expect, it } from "vitest";
import {
  isProductUploadPath,
  productIdOfUploadPath,
  productUploadPath,
  sanitizeFilename,
  sniffImageType,
} from "./admin-uploads.ts";

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

describe("sniffImageType", () => {
  it("knows JPEG, PNG, WebP and AVIF by their first bytes", () => {
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniffImageType(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("png");
    expect(sniffImageType(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(sniffImageType(bytes([0, 0, 0, 0x1c], "ftypavif", [0, 0, 0, 0], "avifmif1"))).toBe(
      "avif",
    );
    // an AVIF that names avif only among its compatible brands
    expect(sniffImageType(bytes([0, 0, 0, 0x18], "ftypmif1", [0, 0, 0, 0], "avifmiaf"))).toBe(
      "avif",
    );
  });

  it("refuses anything else, whatever it is called", () => {
    expect(sniffImageType(bytes("hello, I am a text file.png"))).toBeNull();
    expect(sniffImageType(bytes("GIF89a", [0, 0, 0, 0]))).toBeNull();
    expect(sniffImageType(bytes([0, 0, 0, 0x18], "ftypheic", [0, 0, 0, 0], "mif1heic"))).toBeNull();
    expect(sniffImageType(bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("file names and paths", () => {
  const id = "0b6f3c1e-3d6a-4a39-9d4b-8f1a2c3d4e5f";

  it("sanitises the name and stores it as .webp", () => {
    expect(sanitizeFilename("My Dragon (final).PNG")).toBe("my-dragon-final.webp");
    expect(sanitizeFilename("../../etc/passwd")).toBe("passwd.webp");
    expect(sanitizeFilename("C:\\photos\\Café.jpg")).toBe("cafe.webp");
    expect(sanitizeFilename(".hidden")).toBe("hidden.webp");
    expect(sanitizeFilename("日本.png")).toBe("image.webp");
    expect(sanitizeFilename(`${"a".repeat(200)}.jpg`)).toBe(`${"a".repeat(80)}.webp`);
  });

  it("puts uploads under products/{productId}/{timestamp}_{filename}", () => {
    const p = productUploadPath(id, "Photo 1.jpg", 1_700_000_000_000);
    expect(p).toBe(`products/${id}/1700000000000_photo-1.webp`);
    expect(isProductUploadPath(id, p)).toBe(true);
    expect(productIdOfUploadPath(p)).toBe(id);
  });

  it("refuses another product's path, variants and anything odd", () => {
    const other = "11111111-2222-4333-8444-555555555555";
    expect(isProductUploadPath(id, `products/${other}/1700000000000_a.webp`)).toBe(false);
    expect(isProductUploadPath(id, `products/${id}/1700000000000_a.webp.w320.avif`)).toBe(false);
    expect(isProductUploadPath(id, `products/${id}/../${other}/1700000000000_a.webp`)).toBe(false);
    expect(isProductUploadPath(id, `products/${id}/sub/1700000000000_a.webp`)).toBe(false);
    expect(isProductUploadPath(id, `promotions/1700000000000_a.webp`)).toBe(false);
    expect(isProductUploadPath("not-a-uuid", "products/not-a-uuid/1700000000000_a.webp")).toBe(
      false,
    );
    expect(productIdOfUploadPath("products/x/1.webp")).toBeNull();
    expect(productIdOfUploadPath(42)).toBeNull();
  });
});

describe("upload paths and size variants", () => {
  const id = "0b7f2c3e-1d2a-4b5c-8d9e-0f1a2b3c4d5e";
  it("never treats a stored image's size variant as an upload", () => {
    expect(isProductUploadPath(id, `products/${id}/1700000000000_a.webp`)).toBe(true);
    expect(isProductUploadPath(id, `products/${id}/1700000000000_a.webp.w320.webp`)).toBe(false);
    expect(isProductUploadPath(id, `products/${id}/1700000000000_a.webp.w640.avif`)).toBe(false);
  });
  it("keeps dots out of stored names", () => {
    expect(sanitizeFilename("my.photo.v2.PNG")).toBe("my-photo-v2.webp");
  });
});
