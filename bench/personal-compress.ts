/**
 * What compressing a personalised page costs per answer (decision 0026): a page the shop serves
 * is fetched once, then compressed again and again at each brotli quality and gzip level, CPU
 * time per call and the compressed size reported.
 *
 *   node bench/personal-compress.ts http://127.0.0.1:3000/products [--rounds 200]
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const url = process.argv[2];
if (!url) throw new Error("usage: node bench/personal-compress.ts <page url> [--rounds N]");
const roundsAt = process.argv.indexOf("--rounds");
const rounds = roundsAt === -1 ? 200 : Number(process.argv[roundsAt + 1]);
const html = Buffer.from(
  await (await fetch(url, { headers: { "accept-encoding": "identity" } })).text(),
);

function measure(label: string, compress: () => Buffer) {
  compress();
  const start = process.cpuUsage();
  let size = 0;
  for (let i = 0; i < rounds; i++) size = compress().length;
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000 / rounds;
  console.log(`| ${label} | ${ms.toFixed(2)} | ${(size / 1024).toFixed(1)} |`);
}

console.log(`${url}: ${(html.length / 1024).toFixed(1)} KB, ${rounds} rounds each`);
console.log("| encoding | CPU ms per page | KB |");
console.log("|---|---|---|");
for (const quality of [1, 2, 3, 4, 5, 7]) {
  measure(`brotli ${quality}`, () =>
    brotliCompressSync(html, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    }),
  );
}
for (const level of [1, 4, 6]) measure(`gzip ${level}`, () => gzipSync(html, { level }));
