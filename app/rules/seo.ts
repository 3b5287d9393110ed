import type { MetaDescriptor } from "react-router";

/*
 * Page metadata in one place: title, description, canonical URL and Open Graph tags. The absolute
 * origin comes from the root loader (PUBLIC_URL), so canonical links are right behind any proxy.
 */
export const SITE_NAME = "LayerKart";

type Match = { id: string; loaderData?: unknown } | undefined;

/** The shop's public origin, read from the root route's loader data in a meta function. */
export function originFrom(matches: ReadonlyArray<Match>): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { origin?: string } | undefined;
  return root?.origin ?? "";
}

export type PageMetaInput = {
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. "/about". */
  path: string;
  origin: string;
  /** Absolute or root-relative image for link previews. */
  image?: string | null;
  type?: "website" | "product" | "article";
  noindex?: boolean;
};

export function pageMeta(input: PageMetaInput): MetaDescriptor[] {
  const title = input.title.includes(SITE_NAME) ? input.title : `${input.title} — ${SITE_NAME}`;
  const url = `${input.origin}${input.path}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:locale", content: "en_IN" },
    { name: "twitter:card", content: input.image ? "summary_large_image" : "summary" },
  ];
  if (input.image) {
    const image = input.image.startsWith("http") ? input.image : `${input.origin}${input.image}`;
    tags.push({ property: "og:image", content: image });
  }
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** A JSON-LD block for a meta function: `{ "script:ld+json": {...} }`. */
export function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": data };
}
