/**
 * A local S3-compatible server (s3rver) as its own process, for the tests: started by
 * tests/support/s3-server.ts with S3RVER_DIR and S3RVER_BUCKETS (comma-separated) in its
 * environment; prints {"port": N} on its first line of output once it listens.
 */
import S3rver from "s3rver";

const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIR ?? "",
  configureBuckets: (process.env.S3RVER_BUCKETS ?? "")
    .split(",")
    .filter(Boolean)
    .map((name) => ({ name, configs: [] })),
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close().finally(() => process.exit(0));
  });
}
