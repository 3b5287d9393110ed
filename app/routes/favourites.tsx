import { Heart } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { FavouriteButton } from "~/components/product/favourite-button";
import { ProductImage } from "~/components/product/product-image";
import { buttonVariants } from "~/components/ui/button";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import { listFavourites } from "~/modules/favourites/favourites.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/favourites";

/** The signed-in user's favourites; nothing is read without a session (SPEC.md §6). */
export async function loader({ request }: Route.LoaderArgs) {
  const rt = await runtime();
  const viewer = await getViewer(rt, request);
  if (!viewer) return { signedIn: false as const, favourites: [] };
  return { signedIn: true as const, favourites: await listFavourites(rt.db, viewer.id) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Favourites",
    description: "The prints you saved on LayerKart.",
    path: "/favourites",
    origin: originFrom(matches),
    noindex: true,
  });

export default function FavouritesPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
        <Heart aria-hidden="true" className="size-12 text-muted-foreground" />
        <h1 className="font-bold text-3xl">Favourites</h1>
        <p className="text-muted-foreground">Please sign in to see your favourited items.</p>
        <Link to="/auth?redirectTo=%2Ffavourites" className={buttonVariants()}>
          Sign In
        </Link>
      </section>
    );
  }
  return <FavouritesGrid favourites={loaderData.favourites} />;
}

type Favourite = Route.ComponentProps["loaderData"]["favourites"][number];

/** New favourites (hearted in another tab) join at the front; those shown stay in their place. */
function merge(shown: Favourite[], current: Favourite[]): Favourite[] {
  const seen = new Set(shown.map((f) => f.productId));
  return [...current.filter((f) => !seen.has(f.productId)), ...shown];
}

/**
 * A product un-hearted here leaves the grid once its heart has said "Removed from favourites"
 * (it once stayed until a reload, contradicting the toast). The heart tells the grid, rather than
 * the card vanishing with the reloaded list: that would take the heart, and its toast, with it.
 * Focus, which was on that heart, goes to the heading rather than being lost.
 */
function FavouritesGrid({ favourites: current }: { favourites: Favourite[] }) {
  const [favourites, setFavourites] = useState(current);
  const [source, setSource] = useState(current);
  if (source !== current) {
    setSource(current);
    setFavourites(merge(favourites, current));
  }
  const heading = useRef<HTMLHeadingElement>(null);
  const removed = (productId: string) => {
    setFavourites((shown) => shown.filter((f) => f.productId !== productId));
    heading.current?.focus();
  };
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 ref={heading} tabIndex={-1} className="font-bold text-3xl focus:outline-none">
        Favourites
      </h1>
      {favourites.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 text-center">
          <p className="text-muted-foreground">No favourites yet.</p>
          <Link to="/products" className={buttonVariants({ variant: "outline" })}>
            Browse Products
          </Link>
        </div>
      ) : (
        <ul
          aria-label="Favourite products"
          className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4"
        >
          {favourites.map((f) => (
            <li
              key={f.productId}
              data-testid="favourite"
              className="relative flex flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs"
            >
              <Link to={`/product/${f.productId}`} prefetch="intent">
                <ProductImage
                  src={f.imageUrl}
                  alt={f.name}
                  sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw"
                  className="aspect-square w-full bg-muted object-cover"
                />
              </Link>
              <FavouriteButton
                productId={f.productId}
                productName={f.name}
                onSaved={(favourite) => (favourite ? undefined : removed(f.productId))}
                className="absolute top-1.5 right-1.5 bg-background/80 hover:bg-background"
              />
              <div className="flex flex-col gap-1 p-3">
                <h2 className="line-clamp-2 font-medium text-sm leading-snug">{f.name}</h2>
                <p className="text-muted-foreground text-xs">{f.category}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
