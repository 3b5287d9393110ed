// Procedural placeholder artwork for the demo catalogue.
// Pure functions only: every call returns a self-contained SVG document string that depends
// solely on its arguments, so seeding is reproducible and needs no image files in the repo.

import type { ArtSpec } from "./catalogue.ts";

export type Motif =
  | "vase"
  | "planter"
  | "lamp"
  | "lotus"
  | "gadget"
  | "box"
  | "organizer"
  | "gear"
  | "figure"
  | "creature"
  | "dragon"
  | "robot"
  | "rocket"
  | "mask";

export const motifs: readonly Motif[] = [
  "vase",
  "planter",
  "lamp",
  "lotus",
  "gadget",
  "box",
  "organizer",
  "gear",
  "figure",
  "creature",
  "dragon",
  "robot",
  "rocket",
  "mask",
];

/** Parts of a motif in object space: roughly x in [-130, 130], y in [-150, 130], resting on y = 130. */
type Parts = {
  back?: string; // drawn behind the printed object, with its own fills
  body: string[]; // main filament colour; shapes must not set their own fill
  accent?: string[]; // second filament colour; shapes must not set their own fill
  front?: string; // details drawn on top, with their own fills
};

const n = (x: number): string => String(Math.round(x * 10) / 10);

const DARK = "#1f2430";
const FLAME = "#ffc94d";

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Small deterministic hash (FNV-1a) used to make element ids unique per image. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

function normHue(h: number): number {
  const v = Math.round(Number.isFinite(h) ? h : 0) % 360;
  return v < 0 ? v + 360 : v;
}

function mirror(d: string): string {
  // Mirror an absolute path (commands M, L, C, H, V, Z only) about x = 0.
  return d.replace(/([MLCH])([^MLCHVZ]*)/g, (_, cmd: string, args: string) => {
    const nums = args.match(/-?\d*\.?\d+/g) ?? [];
    const out = nums.map((v, i) => (cmd === "H" || i % 2 === 0 ? n(-Number(v)) : v));
    return cmd + out.join(" ");
  });
}

function gearPath(
  cx: number,
  cy: number,
  rOuter: number,
  rRoot: number,
  teeth: number,
  hole: number,
) {
  const pts: string[] = [];
  for (let i = 0; i < teeth; i++) {
    const a = (i / teeth) * Math.PI * 2;
    const step = (Math.PI * 2) / teeth;
    const corners: [number, number][] = [
      [rRoot, a],
      [rOuter, a + step * 0.18],
      [rOuter, a + step * 0.45],
      [rRoot, a + step * 0.63],
    ];
    for (const [r, t] of corners) pts.push(`${n(cx + r * Math.cos(t))} ${n(cy + r * Math.sin(t))}`);
  }
  const ring = `M${n(cx + hole)} ${n(cy)}a${hole} ${hole} 0 1 0 ${-2 * hole} 0a${hole} ${hole} 0 1 0 ${2 * hole} 0Z`;
  return `<path fill-rule="evenodd" d="M${pts.join("L")}Z${ring}"/>`;
}

function petal(len: number, width: number, rot: number): string {
  const tip = 100 - len;
  return `<path transform="rotate(${rot} 0 100)" d="M0 100C${-width} ${n(100 - len * 0.35)} ${-width * 0.8} ${n(tip + len * 0.2)} 0 ${tip}C${width * 0.8} ${n(tip + len * 0.2)} ${width} ${n(100 - len * 0.35)} 0 100Z"/>`;
}

function eyes(x: number, y: number, r: number, gap: number): string {
  return [-gap, gap]
    .map(
      (dx) =>
        `<ellipse cx="${x + dx}" cy="${y}" rx="${r}" ry="${n(r * 1.3)}" fill="${DARK}"/><circle cx="${n(x + dx + r * 0.35)}" cy="${n(y - r * 0.45)}" r="${n(r * 0.35)}" fill="#fff"/>`,
    )
    .join("");
}

function drawMotif(motif: Motif, glow: string, leaf: string, warm: string): Parts {
  switch (motif) {
    case "vase":
      return {
        body: [
          "<path d='M-42 130C-100 85-98 5-46-40C-28-58-30-92-38-112H38C30-92 28-58 46-40C98 5 100 85 42 130Z'/>",
        ],
        accent: [
          '<ellipse cy="-112" rx="40" ry="9"/>',
          '<rect x="-44" y="124" width="88" height="8" rx="3"/>',
        ],
        front:
          '<g fill="none" stroke="#fff" stroke-opacity=".28" stroke-width="3"><path d="M-30 126C-78 60-56 0-22-50"/><path d="M0 128C-40 70-20 0 4-56"/><path d="M30 126C-6 70 10 0 32-48"/></g><ellipse cy="-112" rx="30" ry="5" fill="#000" fill-opacity=".35"/>',
      };
    case "planter":
      return {
        back: `<g fill="${leaf}">${[-60, -35, -12, 12, 35, 60]
          .map(
            (r, i) =>
              `<ellipse rx="${i % 2 ? 18 : 15}" ry="${i % 2 ? 62 : 50}" transform="rotate(${r} 0 20) translate(0 -40)"/>`,
          )
          .join(
            "",
          )}</g><g fill="#000" fill-opacity=".15">${[-48, 0, 48].map((r) => `<ellipse rx="7" ry="44" transform="rotate(${r} 0 20) translate(0 -34)"/>`).join("")}</g>`,
        body: ['<path d="M-85 10H85L62 130H-62Z"/>'],
        accent: ['<rect x="-93" y="-4" width="186" height="18" rx="5"/>'],
        front:
          '<path d="M-85 14L-30 130L0 14L30 130L85 14" fill="none" stroke="#000" stroke-opacity=".14" stroke-width="3"/>',
      };
    case "lamp":
      return {
        back: `<circle cy="-30" r="160" fill="url(#${warm})"/>`,
        body: [
          '<path d="M-68-112H68L96 40H-96Z"/>',
          '<rect x="-72" y="106" width="144" height="24" rx="8"/>',
        ],
        accent: [
          '<rect x="-12" y="38" width="24" height="72"/>',
          '<rect x="-74" y="-120" width="148" height="12" rx="5"/>',
        ],
        front: `<g fill="${FLAME}">${[
          [-45, -75],
          [0, -75],
          [45, -75],
          [-62, -25],
          [-22, -25],
          [22, -25],
          [62, -25],
          [-45, 20],
          [0, 20],
          [45, 20],
        ]
          .map(
            ([x, y]) => `<path transform="translate(${x} ${y})" d="M-14 0L-7-12H7L14 0L7 12H-7Z"/>`,
          )
          .join("")}</g>`,
      };
    case "lotus":
      return {
        back: `<circle cy="-60" r="80" fill="url(#${warm})"/>`,
        body: [
          '<ellipse cy="112" rx="104" ry="20"/>',
          petal(110, 34, -46),
          petal(110, 34, 46),
          petal(122, 36, -16),
          petal(122, 36, 16),
        ],
        accent: [petal(125, 36, -72), petal(125, 36, 72), petal(140, 38, 0)],
        front: `<path d="M0-92C-16-66-14-50 0-44C14-50 16-66 0-92Z" fill="${FLAME}"/><path d="M0-76C-6-64-6-56 0-52C6-56 6-64 0-76Z" fill="#fff" fill-opacity=".8"/>`,
      };
    case "gadget":
      return {
        body: [
          '<path d="M-118 130L-100 96H100L118 130Z"/>',
          '<path d="M22 98L64-66L86-60L52 98Z"/>',
          '<rect x="-84" y="78" width="150" height="20" rx="6"/>',
        ],
        accent: [
          '<rect x="-40" y="-118" width="96" height="200" rx="14" transform="rotate(-14 8 80)"/>',
        ],
        front: `<g transform="rotate(-14 8 80)"><rect x="-32" y="-108" width="80" height="180" rx="8" fill="${DARK}"/><rect x="-24" y="-98" width="30" height="150" fill="#fff" fill-opacity=".12"/></g>`,
      };
    case "box":
      return {
        body: ['<path d="M-100-20L0 30V130L-100 80Z"/>', '<path d="M100-20L0 30V130L100 80Z"/>'],
        accent: [
          '<path d="M0-96L106-46L0 4L-106-46Z"/>',
          '<path d="M-106-46L0 4L106-46V-28L0 22L-106-28Z"/>',
        ],
        front:
          '<path d="M-100-20L0 30V130L-100 80Z" fill="#000" fill-opacity=".12"/><path d="M0-74L52-46L0-18L-52-46Z" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="4"/><circle cy="-46" r="8" fill="#fff" fill-opacity=".45"/>',
      };
    case "organizer":
      return {
        back: `<g stroke-width="10" stroke-linecap="round"><path d="M-70 0L-88-110" stroke="#e4572e"/><path d="M-50 0L-40-96" stroke="${DARK}"/><path d="M0 0L6-130" stroke="#2e86de"/><path d="M58 20L84-70" stroke="#f4b400"/></g>`,
        body: [
          '<rect x="-104" y="-14" width="78" height="144" rx="8"/>',
          '<rect x="30" y="26" width="76" height="104" rx="8"/>',
        ],
        accent: ['<rect x="-38" y="-34" width="80" height="164" rx="8"/>'],
        front: `<g fill="#000" fill-opacity=".3"><ellipse cx="-65" cy="-6" rx="30" ry="6"/><ellipse cx="2" cy="-26" rx="32" ry="6"/><ellipse cx="68" cy="34" rx="30" ry="6"/></g><rect x="-30" y="40" width="64" height="26" rx="4" fill="#fff" fill-opacity=".3"/>`,
      };
    case "gear":
      return {
        body: [gearPath(-28, -22, 108, 88, 12, 34)],
        accent: [gearPath(80, 74, 56, 44, 8, 16)],
        front:
          '<circle cx="-28" cy="-22" r="58" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="6"/>',
      };
    case "figure":
      return {
        back: '<path d="M-70-30L-112 40L-60 10ZM70-30L112 40L60 10Z"/>',
        body: [
          '<path d="M-56 130C-62 72-44 36 0 36C44 36 62 72 56 130Z"/>',
          '<circle cy="-44" r="76"/>',
          '<ellipse cx="-62" cy="84" rx="16" ry="30" transform="rotate(18 -62 84)"/>',
          '<ellipse cx="62" cy="84" rx="16" ry="30" transform="rotate(-18 62 84)"/>',
        ],
        accent: [
          '<path d="M-84-30C-96-120-34-146 4-136C52-142 98-104 84-30C74-58 60-74 40-78L30-54L14-80L-10-56L-20-84C-44-80-66-66-84-30Z"/>',
          '<path d="M-44 60L0 96L44 60L40 130H-40Z"/>',
        ],
        front: `${eyes(0, -24, 12, 30)}<g fill="#ff6f91" fill-opacity=".45"><ellipse cx="-50" cy="4" rx="12" ry="6"/><ellipse cx="50" cy="4" rx="12" ry="6"/></g><path d="M-8 14Q0 20 8 14" stroke="${DARK}" stroke-width="3" fill="none"/>`,
      };
    case "creature":
      return {
        back: '<path d="M60 100C130 100 140 10 100-20C120 40 90 70 50 70Z"/>',
        body: ['<ellipse cy="64" rx="84" ry="68"/>', '<circle cy="-46" r="66"/>'],
        accent: [
          '<path d="M-60-80L-78-150L-18-104Z"/>',
          '<path d="M60-80L78-150L18-104Z"/>',
          '<ellipse cy="78" rx="46" ry="40"/>',
        ],
        front: `${eyes(0, -40, 11, 26)}<path d="M-8-12L0-4L8-12Z" fill="${DARK}"/><g fill="#000" fill-opacity=".25"><ellipse cx="-44" cy="124" rx="22" ry="9"/><ellipse cx="44" cy="124" rx="22" ry="9"/></g>`,
      };
    case "dragon":
      return {
        back: '<path d="M-20 14C-80-40-126-86-116-136C-96-104-76-104-64-118C-58-86-44-84-32-98C-30-56-8-24 6 0Z"/>',
        body: [
          '<path d="M40 124C92 134 124 100 112 58C106 38 88 40 94 60C100 86 80 100 44 100Z"/>',
          '<path d="M-62 130C-92 80-62 8-10 8C42 8 72 72 52 130Z"/>',
          '<path d="M-20 32C-42-30-22-90 30-102C62-108 94-92 98-70C84-60 62-62 46-60C30-40 30 0 22 32Z"/>',
        ],
        accent: [
          '<path d="M34-96L18-140L54-104ZM58-100L56-142L76-98Z"/>',
          '<path d="M-34 24L-58 16L-44 0L-64-12L-46-24L-62-40L-40-46Z"/>',
          '<ellipse cx="-4" cy="84" rx="36" ry="40"/>',
        ],
        front: `<circle cx="62" cy="-80" r="8" fill="${glow}"/><circle cx="63" cy="-80" r="3.5" fill="${DARK}"/><path d="M84-66L96-64" stroke="${DARK}" stroke-width="3"/>`,
      };
    case "robot":
      return {
        back: `<path d="M0-122V-146" stroke="${DARK}" stroke-width="6"/><circle cy="-148" r="10" fill="${glow}"/>`,
        body: [
          '<rect x="-74" y="-124" width="148" height="104" rx="20"/>',
          '<rect x="-62" y="-12" width="124" height="108" rx="14"/>',
          '<rect x="-52" y="96" width="40" height="34" rx="6"/>',
          '<rect x="12" y="96" width="40" height="34" rx="6"/>',
        ],
        accent: [
          '<rect x="-102" y="0" width="30" height="80" rx="12"/>',
          '<rect x="72" y="0" width="30" height="80" rx="12"/>',
          '<rect x="-34" y="14" width="68" height="48" rx="8"/>',
        ],
        front: `<rect x="-56" y="-100" width="112" height="56" rx="14" fill="${DARK}"/><g fill="${glow}"><circle cx="-26" cy="-72" r="12"/><circle cx="26" cy="-72" r="12"/><rect x="-24" y="26" width="10" height="24" rx="2"/><rect x="-5" y="22" width="10" height="28" rx="2"/><rect x="14" y="30" width="10" height="20" rx="2"/></g>`,
      };
    case "rocket":
      return {
        back: `<path d="M-26 62H26L0 134Z" fill="${FLAME}"/><path d="M-12 62H12L0 104Z" fill="#fff" fill-opacity=".7"/>`,
        body: ['<path d="M0-148C46-112 52-32 42 64H-42C-52-32-46-112 0-148Z"/>'],
        accent: [
          '<path d="M0-148C24-130 34-108 38-92H-38C-34-108-24-130 0-148Z"/>',
          '<path d="M-44 14L-90 100L-40 80Z"/>',
          `<path d="${mirror("M-44 14L-90 100L-40 80Z")}"/>`,
          '<rect x="-10" y="30" width="20" height="74" rx="8"/>',
        ],
        front: `<circle cy="-42" r="26" fill="#fff" fill-opacity=".7"/><circle cy="-42" r="18" fill="${DARK}"/><circle cx="-6" cy="-48" r="6" fill="#fff" fill-opacity=".6"/>`,
      };
    case "mask":
      return {
        back: '<circle cx="-94" cy="10" r="18"/><circle cx="94" cy="10" r="18"/>',
        body: [
          '<path d="M0-112C70-112 96-56 90 2C84 70 44 118 0 130C-44 118-84 70-90 2C-96-56-70-112 0-112Z"/>',
        ],
        accent: [
          '<path d="M-88-62L-72-132L-40-92L0-150L40-92L72-132L88-62C50-84-50-84-88-62Z"/>',
          '<path d="M0-62L9-48L0-34L-9-48Z"/>',
          '<path d="M-50 70Q0 44 50 70Q0 112-50 70Z"/>',
        ],
        front: `<g fill="${DARK}"><path d="M-66-8Q-40-34-12-8Q-40 6-66-8Z"/><path d="M66-8Q40-34 12-8Q40 6 66-8Z"/></g><g fill="${glow}"><circle cx="-38" cy="-10" r="6"/><circle cx="38" cy="-10" r="6"/></g><path d="M-68-32Q-40-50-14-30M68-32Q40-50 14-30" stroke="${DARK}" stroke-width="5" fill="none"/><path d="M-28 70L-22 90L-16 70ZM28 70L22 90L16 70Z" fill="#fff"/>`,
      };
  }
}

/**
 * Draw one stylised "3D printed object" picture as an SVG document.
 * Square/tall sizes centre the object (label at the bottom); wide sizes (banners) put the
 * object on the right and the label on the left.
 */
export function drawArtwork(spec: ArtSpec, size: { width: number; height: number }): string {
  const W = Math.max(16, Math.round(size.width));
  const H = Math.max(16, Math.round(size.height));
  const hue = normHue(spec.hue);
  const acc = normHue(spec.accentHue);
  const angle = Number.isFinite(spec.angle) ? spec.angle : 0;
  const rad = (angle * Math.PI) / 180;
  const id = hash(`${spec.motif}|${hue}|${acc}|${angle}|${spec.label ?? ""}|${W}x${H}`);
  const label = spec.label?.trim() ? escapeXml(spec.label.trim()) : "";

  const wide = W / H >= 1.5;
  const m = Math.min(W, H);
  let s = (m / 400) * (label && !wide ? 0.82 : 0.95);
  let cx = W / 2;
  let cy = label && !wide ? H / 2 - m * 0.06 : H / 2;
  if (wide) {
    s = (H / 400) * 0.9;
    cx = W - H * 0.6;
    cy = H / 2;
  }

  const tilt = 10 * Math.sin(rad);
  const sx = 0.86 + 0.14 * Math.abs(Math.cos(rad));
  const flip = Math.cos(rad) < -0.2 ? -1 : 1;
  const zoom = 1 + 0.06 * Math.sin(rad * 2);
  const lightLeft = Math.sin(rad) <= 0;
  const gx = n(0.5 + 0.5 * Math.cos(rad + 0.8));
  const gy = n(0.5 + 0.5 * Math.sin(rad + 0.8));
  const gx2 = n(1 - Number(gx));
  const gy2 = n(1 - Number(gy));

  const glow = `hsl(${(acc + 40) % 360} 95% 62%)`;
  const leaf = `hsl(${120 + (hue % 30)} 45% 40%)`;
  const parts = drawMotif(spec.motif, glow, leaf, `wm-${id}`);

  const bubbles = [0, 1, 2]
    .map((i) => {
      const a = rad * (i + 1) + i * 2.1;
      const r = m * (0.1 + 0.05 * i);
      const bx = W / 2 + Math.cos(a) * W * 0.38;
      const by = H / 2 + Math.sin(a) * H * 0.36;
      return `<circle cx="${n(bx)}" cy="${n(by)}" r="${n(r)}"/>`;
    })
    .join("");

  // Each filament layer is drawn three times: base colour, side shading, and print-layer lines.
  const layer = (name: string, shapes: string[], fill: string) =>
    shapes.length === 0
      ? ""
      : `<g fill="url(#${fill}-${id})"><g id="${name}-${id}">${shapes.join("")}</g></g>` +
        `<use href="#${name}-${id}" fill="url(#sh-${id})"/><use href="#${name}-${id}" fill="url(#ly-${id})"/>`;

  let labelSvg = "";
  if (label) {
    if (wide) {
      const fs = Math.round(H * 0.12);
      labelSvg = `<text x="${n(W * 0.06)}" y="${n(H / 2 + fs * 0.35)}" font-family="sans-serif" font-weight="700" font-size="${fs}" fill="hsl(${hue} 50% 20%)">${label}</text>`;
    } else {
      const fs = Math.round(m * 0.065);
      const pw = Math.min(W * 0.92, label.length * fs * 0.6 + fs * 1.6);
      labelSvg = `<rect x="${n(W / 2 - pw / 2)}" y="${n(H - m * 0.17)}" width="${n(pw)}" height="${n(fs * 1.7)}" rx="${n(fs * 0.85)}" fill="#fff" fill-opacity=".85"/><text x="${n(W / 2)}" y="${n(H - m * 0.17 + fs * 1.17)}" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${fs}" fill="hsl(${hue} 50% 22%)">${label}</text>`;
    }
  }

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    "<defs>",
    `<linearGradient id="bg-${id}" x1="${gx}" y1="${gy}" x2="${gx2}" y2="${gy2}"><stop offset="0" stop-color="hsl(${hue} 55% 94%)"/><stop offset="1" stop-color="hsl(${acc} 60% 80%)"/></linearGradient>`,
    `<linearGradient id="bd-${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue} 65% 62%)"/><stop offset="1" stop-color="hsl(${hue} 60% 42%)"/></linearGradient>`,
    `<linearGradient id="ac-${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${acc} 70% 60%)"/><stop offset="1" stop-color="hsl(${acc} 65% 40%)"/></linearGradient>`,
    `<linearGradient id="sh-${id}" x1="${lightLeft ? 0 : 1}" y1="0" x2="${lightLeft ? 1 : 0}" y2="0"><stop offset="0" stop-color="#fff" stop-opacity=".4"/><stop offset=".45" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".22"/></linearGradient>`,
    `<radialGradient id="wm-${id}"><stop offset="0" stop-color="#ffe9a8" stop-opacity=".9"/><stop offset="1" stop-color="#ffd36b" stop-opacity="0"/></radialGradient>`,
    `<pattern id="ly-${id}" width="8" height="5" patternUnits="userSpaceOnUse"><rect width="8" height="1.6" fill="#000" fill-opacity=".13"/></pattern>`,
    "</defs>",
    `<rect width="${W}" height="${H}" fill="url(#bg-${id})"/>`,
    `<g fill="#fff" fill-opacity=".22">${bubbles}</g>`,
    `<g transform="translate(${n(cx)} ${n(cy)}) scale(${Math.round(s * zoom * 1000) / 1000})">`,
    `<ellipse cy="138" rx="118" ry="13" fill="#000" fill-opacity=".16"/>`,
    `<g transform="rotate(${n(tilt)} 0 130) scale(${Math.round(sx * flip * 100) / 100} 1)">`,
    parts.back ? `<g fill="url(#ac-${id})">${parts.back}</g>` : "",
    layer("b", parts.body, "bd"),
    layer("a", parts.accent ?? [], "ac"),
    parts.front ?? "",
    "</g></g>",
    labelSvg,
    "</svg>",
  ].join("");
}
