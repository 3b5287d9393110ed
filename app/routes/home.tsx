import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { listLatestProducts } from "~/modules/catalog/products.server.ts";
import { PLACEHOLDER_IMAGE, srcSet } from "~/rules/images.ts";
import { formatPaise } from "~/rules/money.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/home";

export async function loader() {
  const { db } = await runtime();
  return { latest: await listLatestProducts(db) };
}

export function meta() {
  return [
    { title: "LayerKart — 3D printed décor, gadgets and miniatures" },
    {
      name: "description",
      content:
        "Shop 3D printed home décor, gadgets and character miniatures, printed in India. Prices in rupees.",
    },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <section className="rounded-xl bg-accent px-6 py-12 text-accent-foreground sm:px-10">
        <h1 className="max-w-2xl font-bold text-3xl tracking-tight sm:text-4xl">
          3D printed décor, gadgets and character miniatures
        </h1>
        <p className="mt-3 max-w-xl text-base">
          Designed and printed layer by layer in India since 2020.
        </p>
      </section>

      <section aria-labelledby="latest-heading" className="mt-12">
        <div className="mb-6 flex items-end justify-between gap-4">
          <h2 id="latest-heading" className="font-bold text-2xl">
            Latest Products
          </h2>
          <Link to="/products" className={buttonVariants({ variant: "outline" })}>
            View All Products
          </Link>
        </div>
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
          {loaderData.latest.map((p, i) => (
            <li key={p.id} className="overflow-hidden rounded-lg border bg-card">
              <Link to={`/product/${p.id}`} className="block">
                <picture>
                  <source
                    type="image/avif"
                    srcSet={srcSet(p.image ?? "", "avif")}
                    sizes="(min-width: 1024px) 25vw, 50vw"
                  />
                  <source
                    type="image/webp"
                    srcSet={srcSet(p.image ?? "", "webp")}
                    sizes="(min-width: 1024px) 25vw, 50vw"
                  />
                  <img
                    src={p.image ?? PLACEHOLDER_IMAGE}
                    alt={p.name}
                    width={640}
                    height={640}
                    loading={i < 2 ? "eager" : "lazy"}
                    fetchPriority={i < 2 ? "high" : "auto"}
                    className="aspect-square w-full object-cover"
                  />
                </picture>
                <div className="space-y-1 p-3">
                  <p className="text-muted-foreground text-xs">{p.category}</p>
                  <h3 className="line-clamp-2 font-medium text-sm">{p.name}</h3>
                  <p className="font-semibold">{formatPaise(p.pricePaise)}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
