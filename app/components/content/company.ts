/*
 * Facts about the shop that more than one page (and the press kit) states. Keep them here so the
 * About page, the Press page and the downloadable fact sheet never disagree.
 */

export const company = {
  name: "LayerKart",
  founded: 2020,
  city: "Bangalore",
  region: "Karnataka, India",
  tagline: "3D printed décor, gadgets and character miniatures, made layer by layer in India.",
  pressEmail: "press@layerkart.in",
  partnersEmail: "partners@layerkart.in",
} as const;

/** The three values the About page names (SPEC §2), reused on Our Story. */
export const companyValues = [
  {
    name: "Quality Craftsmanship",
    text: "Every print is checked by hand before it is packed: layer lines, supports, fit and finish. If we would not put it on our own shelf, it does not leave the studio.",
  },
  {
    name: "Innovation",
    text: "We test new materials, printers and finishing methods every month, so a tricky custom part or a finer miniature is possible today that was not last year.",
  },
  {
    name: "Sustainability",
    text: "We print on demand instead of stocking warehouses, recycle failed prints and offcuts, favour plant-based PLA and ship in plastic-free packaging.",
  },
] as const;

/** Brand colours for the press kit (hex, as used in the logo and the shop's light theme). */
export const brandColours = [
  { name: "Kiln Terracotta", hex: "#B4441F", use: "Logo mark, primary buttons and highlights" },
  { name: "Ink", hex: "#12161F", use: "Body text and the wordmark on light backgrounds" },
  { name: "Paper", hex: "#FDFCF9", use: "Page background" },
  { name: "Sand", hex: "#FBE7D8", use: "Panels and call-outs" },
  { name: "Ember", hex: "#F0834E", use: "Highlights on dark backgrounds" },
  { name: "White", hex: "#FFFFFF", use: "The cube outline inside the logo mark" },
] as const;

/** The logo mark, the same drawing as public/favicon.svg, at press size. */
export const logoMarkSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="512" height="512"><title>LayerKart</title><rect width="32" height="32" rx="7" fill="#b4441f"/><path d="M16 6 25 11v10l-9 5-9-5V11z" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/><path d="M7 11l9 5 9-5M16 16v10" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/></svg>
`;

/** The mark with the wordmark beside it, for articles and listings. */
export const logoWordmarkSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 176 48" width="1056" height="288"><title>LayerKart</title><g transform="translate(8 8)"><rect width="32" height="32" rx="7" fill="#b4441f"/><path d="M16 6 25 11v10l-9 5-9-5V11z" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/><path d="M7 11l9 5 9-5M16 16v10" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/></g><text x="50" y="32.5" fill="#12161f" font-family="ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif" font-size="22" font-weight="700" letter-spacing="-0.3">LayerKart</text></svg>
`;
