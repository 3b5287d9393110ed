import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import type { ProductCardData } from "~/rules/product-display.ts";
import { AddToCartButton } from "./add-to-cart-button";
import { FavouriteButton } from "./favourite-button";
import { Price } from "./price";
import { ProductImage } from "./product-image";
import { RatingStars } from "./rating-stars";

/** A product in a grid: the image and name open the product page. */
export function ProductCard({
  product,
  priority = false,
  headingLevel = 3,
}: {
  product: ProductCardData;
  priority?: boolean;
  headingLevel?: 2 | 3;
}) {
  const href = `/product/${product.id}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs transition-shadow hover:shadow-md">
      <div className="relative">
        <Link to={href} prefetch="intent" tabIndex={-1} aria-hidden="true">
          <ProductImage
            src={product.image}
            alt=""
            sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw"
            priority={priority}
            className="aspect-square w-full bg-muted object-cover transition-transform group-hover:scale-[1.02]"
          />
        </Link>
        {product.badge ? (
          <Badge
            className="absolute top-2 left-2"
            variant={product.badge === "New" ? "secondary" : "default"}
          >
            {product.badge}
          </Badge>
        ) : null}
        <FavouriteButton
          productId={product.id}
          productName={product.name}
          className="absolute top-1.5 right-1.5 z-10 bg-background/80 hover:bg-background"
        />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <p className="text-muted-foreground text-xs">{product.category}</p>
        <Heading className="line-clamp-2 font-medium text-sm leading-snug">
          <Link
            to={href}
            prefetch="intent"
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
          >
            {product.name}
          </Link>
        </Heading>
        <div className="flex items-center gap-1.5 text-muted-foreground text-xs">
          <RatingStars rating={product.rating} size={14} />
          <span>({product.reviewsCount})</span>
        </div>
        <Price
          pricePaise={product.pricePaise}
          originalPricePaise={product.originalPricePaise}
          className="mt-auto pt-1"
        />
        <AddToCartButton
          product={product}
          size="sm"
          nameInLabel
          className="relative z-10 mt-2 w-full"
        />
      </div>
    </article>
  );
}

export function ProductGrid({
  products,
  priorityCount = 0,
  label,
  headingLevel = 3,
}: {
  products: ProductCardData[];
  priorityCount?: number;
  label?: string;
  /** 2 when the grid follows the page's h1 directly; 3 under a section heading. */
  headingLevel?: 2 | 3;
}) {
  return (
    <ul
      aria-label={label}
      className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4"
    >
      {products.map((p, i) => (
        <li key={p.id} className="flex">
          <div className="w-full">
            <ProductCard product={p} priority={i < priorityCount} headingLevel={headingLevel} />
          </div>
        </li>
      ))}
    </ul>
  );
}
