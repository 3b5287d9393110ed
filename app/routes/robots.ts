import { runtime } from "~/runtime.server.ts";

/** /robots.txt: everything public may be crawled; private and admin areas may not. */
export async function loader() {
  const { env } = await runtime();
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /account",
    "Disallow: /addresses",
    "Disallow: /orders",
    "Disallow: /favourites",
    "Disallow: /cart",
    "Disallow: /checkout",
    "Disallow: /payment-success",
    "Disallow: /search",
    "",
    `Sitemap: ${env.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
