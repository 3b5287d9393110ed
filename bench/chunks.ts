/**
 * What the client JavaScript chunks are made of: attributes every byte of each built chunk to the
 * source file (and so the npm package or app folder) it came from, using the chunk's source map.
 *
 *   BUILD_DIR=.tmp/build-bench-map npx react-router build --sourcemapClient
 *   node bench/chunks.ts [--build-dir .tmp/build-bench-map] [--chunks 8] [--files 8] [--only a,b]
 *
 * --only takes chunk name prefixes (e.g. the files bench/js-size.ts lists for the product page).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs, root } from "./lib.ts";

const args = parseArgs();
const assets = path.resolve(root, args.get("build-dir") ?? ".tmp/build-bench-map", "client/assets");
const maxChunks = Number(args.get("chunks") ?? 8);
const maxFiles = Number(args.get("files") ?? 8);
const only = args.get("only")?.split(",").filter(Boolean);

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const b64 = new Map([...B64].map((c, i) => [c, i]));

/** Decodes one source-map "mappings" segment (base64 VLQ) into numbers. */
function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = b64.get(ch);
    if (digit === undefined) throw new Error(`bad VLQ character ${ch}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

type SourceMap = { sources: string[]; mappings: string };

/** Bytes of generated code per source index (columns of a line count as bytes: ASCII output). */
function attribute(code: string, map: SourceMap): Map<number, number> {
  const lines = code.split("\n");
  const bytes = new Map<number, number>();
  let source = 0;
  map.mappings.split(";").forEach((line, lineIndex) => {
    const lineLength = lines[lineIndex]?.length ?? 0;
    let column = 0;
    const segments = line
      .split(",")
      .filter(Boolean)
      .map((s) => {
        const f = decodeSegment(s);
        column += f[0];
        if (f.length >= 4) source += f[1];
        return { column, source: f.length >= 4 ? source : -1 };
      });
    segments.forEach((seg, i) => {
      const end = i + 1 < segments.length ? segments[i + 1].column : lineLength;
      bytes.set(seg.source, (bytes.get(seg.source) ?? 0) + Math.max(0, end - seg.column));
    });
  });
  return bytes;
}

/** node_modules/<pkg>/… → the package; app/… → the app folder (two levels). */
function owner(source: string): string {
  const clean = source.replace(/^(\.\.\/)+/, "").replace(/^\/?work\/main\//, "");
  const nm = clean.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = clean.slice(nm + 13).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return clean;
}

const kb = (n: number) => (n / 1024).toFixed(1);
const chunks = readdirSync(assets)
  .filter((f) => f.endsWith(".js") && (!only || only.some((o) => f.startsWith(o))))
  .map((f) => {
    const code = readFileSync(path.join(assets, f), "utf8");
    return { file: f, code, raw: Buffer.byteLength(code), gzip: gzipSync(code).length };
  })
  .sort((a, b) => b.gzip - a.gzip)
  .slice(0, maxChunks);

for (const c of chunks) {
  let mapText: string;
  try {
    mapText = readFileSync(path.join(assets, `${c.file}.map`), "utf8");
  } catch {
    console.log(`\n${c.file}: ${kb(c.gzip)} KB gzipped (no source map)`);
    continue;
  }
  const map = JSON.parse(mapText) as SourceMap;
  const bySource = attribute(c.code, map);
  const byOwner = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [i, n] of bySource) {
    const src = i < 0 ? "(generated)" : map.sources[i];
    byOwner.set(owner(src), (byOwner.get(owner(src)) ?? 0) + n);
    const file = src.replace(/^(\.\.\/)+/, "");
    byFile.set(file, (byFile.get(file) ?? 0) + n);
  }
  const total = [...bySource.values()].reduce((a, b) => a + b, 0) || 1;
  console.log(`\n${c.file}: ${kb(c.gzip)} KB gzipped, ${kb(c.raw)} KB minified`);
  console.log("  by package / app folder (share of minified bytes):");
  for (const [o, n] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, maxFiles)) {
    console.log(
      `    ${((100 * n) / total).toFixed(1).padStart(5)}%  ${kb(n).padStart(6)} KB  ${o}`,
    );
  }
  console.log("  largest source files:");
  for (const [f, n] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, maxFiles)) {
    console.log(`    ${kb(n).padStart(6)} KB  ${f}`);
  }
}
