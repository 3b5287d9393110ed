import { listSitemapProducts, listSubcategories } from "~/modules/catalog/products.server.ts";
import { LISTINGS, subcategorySlug } from "~/rules/catalog-paths.ts";
import { runtime } from "~/runtime.server.ts";

/** Every content page of the shop (SPEC.md §2 public routes that a search engine should index). */
export const CONTENT_PATHS = [
  "/",
  "/products",
  "/3d-prints",
  "/3d-characters",
  "/about",
  "/our-story",
  "/careers",
  "/wholesale",
  "/press",
  "/shipping",
  "/returns",
  "/size-guide",
  "/faq",
  "/privacy-policy",
  "/terms",
  "/refund-policy",
  "/cookie-policy",
  "/policies",
  "/contact",
  "/custom-printing",
];

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!,
  );

/** /sitemap.xml: the content pages, each listing's subcategory pages and every active product. */
export async function loader() {
  const { db, env } = await runtime();
  const rows = await listSitemapProducts(db);
  const subcategoryPaths = (
    await Promise.all(
      Object.entries(LISTINGS).map(async ([text, listing]) =>
        (
          await listSubcategories(db, text)
        )
          .map(subcategorySlug)
          // A name with no Latin letters or digits has no page of its own.
          .filter(Boolean)
          .map((slug) => `${listing}/${slug}`),
      ),
    )
  ).flat();
  const urls = [
    ...[...CONTENT_PATHS, ...new Set(subcategoryPaths)].map(
      (p) => `<url><loc>${escapeXml(env.publicUrl + p)}</loc></url>`,
    ),
    ...rows.map(
      (r) =>
        `<url><loc>${escapeXml(`${env.publicUrl}/product/${r.id}`)}</loc><lastmod>${r.updatedAt.toISOString()}</lastmod></url>`,
    ),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
