export interface FileStorage {
  readonly kind: "local" | "s3";
  /** Stores bytes at a storage path such as `products/{productId}/{timestamp}_{filename}`. */
  put(storagePath: string, data: Buffer | Uint8Array, contentType: string): Promise<void>;
  get(storagePath: string): Promise<Buffer | null>;
  delete(storagePath: string): Promise<void>;
  exists(storagePath: string): Promise<boolean>;
  /** A URL the browser can load the file from. */
  url(storagePath: string): string;
  /** A time-limited direct link to the file (object storage only). */
  signedUrl?(storagePath: string, expiresInSeconds: number): Promise<string>;
}
