import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { safeStoragePath } from "./local.server.ts";
import type { FileStorage } from "./types.ts";

/*
 * Files in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Garage …), so that several
 * instances see the same uploads. Storage paths become keys under a prefix; the public files and
 * customers' model files use different prefixes (or buckets), and model files never get a public
 * address.
 */

export type S3Connection = Readonly<{
  region: string;
  /** For anything that isn't AWS (e.g. http://127.0.0.1:9000). */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}>;

export type S3StorageOptions = Readonly<{
  bucket: string;
  /** Key prefix, e.g. "uploads/" (empty for none). */
  prefix: string;
  /**
   * Where browsers load these files: a public base URL (a CDN, the bucket's public address), or
   * a path the shop serves them under (`/uploads`, read from the bucket by the server).
   */
  urlBase: string;
}>;

export function createS3Client(connection: S3Connection): S3Client {
  return new S3Client({
    region: connection.region,
    endpoint: connection.endpoint,
    forcePathStyle: connection.forcePathStyle,
    credentials:
      connection.accessKeyId && connection.secretAccessKey
        ? {
            accessKeyId: connection.accessKeyId,
            secretAccessKey: connection.secretAccessKey,
          }
        : undefined,
    // Checksums only where the API requires them: S3-compatible servers differ in what they
    // accept, and every body here is sent whole with its length.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" ||
    error.name === "NotFound" ||
    error.$metadata?.httpStatusCode === 404);

const encodePath = (p: string) => p.split("/").map(encodeURIComponent).join("/");

export function createS3Storage(client: S3Client, options: S3StorageOptions): FileStorage {
  const key = (storagePath: string) => `${options.prefix}${safeStoragePath(storagePath)}`;
  const base = options.urlBase.replace(/\/+$/, "");
  const absoluteBase = /^https?:\/\//.test(base);
  return {
    kind: "s3",
    async put(storagePath, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key(storagePath),
          Body: data,
          ContentType: contentType,
          // Stored names carry a timestamp and never change (as the local /uploads route says).
          CacheControl: "public, max-age=2592000, immutable",
        }),
      );
    },
    async get(storagePath) {
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: key(storagePath) }),
        );
        if (!res.Body) return null;
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(storagePath) {
      // S3 answers 204 for a key that isn't there: deleting twice is fine.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key(storagePath) }));
    },
    async exists(storagePath) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: key(storagePath) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    url(storagePath) {
      const p = safeStoragePath(storagePath);
      // A public base addresses the object by its key; the shop's own route by the storage path.
      return absoluteBase
        ? `${base}/${encodePath(options.prefix + p)}`
        : `${base}/${encodePath(p)}`;
    },
    async signedUrl(storagePath, expiresInSeconds) {
      return getSignedUrl(
        client,
        new GetObjectCommand({ Bucket: options.bucket, Key: key(storagePath) }),
        { expiresIn: expiresInSeconds },
      );
    },
  };
}
