import { strToU8, zipSync } from "fflate";
import { brandColours, company, logoMarkSvg, logoWordmarkSvg } from "~/components/content/company";

/*
 * GET /press-kit.zip — the press kit the Press page's download buttons fetch (DESIGN decision 8:
 * a real download). Built in memory from the same facts the Press page shows, once per process.
 */

function factSheet(): string {
  return [
    `${company.name} — fact sheet`,
    "",
    `Founded:       ${company.founded}, in a garage in ${company.city}`,
    `Headquarters:  ${company.city}, ${company.region}`,
    "What we make:  3D printed décor, gadgets and character miniatures, and custom 3D prints",
    "Materials:     PLA, PETG and specialty filaments",
    "Custom files:  STL, OBJ, 3MF and PLY",
    "Shipping:      Across India and worldwide, with tracking",
    "",
    "About",
    `${company.name} is a 3D printing studio in ${company.city}. It began in ${company.founded} with`,
    "one printer in a garage and now runs a print farm, a design desk and a finishing bench.",
    "Every piece is printed to order and checked by hand before it ships.",
    "",
    "Values",
    "- Quality Craftsmanship",
    "- Innovation",
    "- Sustainability",
    "",
    "Media contact",
    company.pressEmail,
    "",
  ].join("\r\n");
}

function brandColoursText(): string {
  const rows = brandColours.map((c) => `${c.name.padEnd(16)} ${c.hex}   ${c.use}`);
  return [
    `${company.name} brand colours`,
    "",
    ...rows,
    "",
    "Use the logo on Paper or White backgrounds; keep clear space of at least the cube's width",
    "around it. Do not stretch, recolour or redraw the logo.",
    "",
  ].join("\r\n");
}

// Fixed timestamp: the archive is byte-identical on every build, so caches and checksums agree.
const mtime = new Date("2026-01-01T00:00:00Z");

let cached: Uint8Array<ArrayBuffer> | null = null;

function buildPressKit(): Uint8Array<ArrayBuffer> {
  if (cached) return cached;
  const zipped = zipSync(
    {
      "layerkart-logo.svg": strToU8(logoWordmarkSvg),
      "layerkart-logo-mark.svg": strToU8(logoMarkSvg),
      "fact-sheet.txt": strToU8(factSheet()),
      "brand-colours.txt": strToU8(brandColoursText()),
    },
    { level: 9, mtime },
  );
  cached = new Uint8Array(zipped);
  return cached;
}

export function loader() {
  const body = buildPressKit();
  return new Response(body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": 'attachment; filename="layerkart-press-kit.zip"',
      "Content-Length": String(body.byteLength),
      "Cache-Control": "public, max-age=3600",
    },
  });
}
