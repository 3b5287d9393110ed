import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import {
  type CardSwatch,
  CHOOSE_OPTIONS,
  isPurchasable,
  type ProductCardData,
} from "~/rules/product-display.ts";
import { AddToCartButton } from "./add-to-cart-button";
import { FavouriteButton } from "./favourite-button";
import { Price } from "./price";
import { ProductImage } from "./product-image";
import { RatingStars } from "./rating-stars";

/**
 * A product in a grid: the image and name open the product page. Its looks are component classes
 * (`.product-card…` in app/app.css): a listing repeats them 24 times.
 */
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
    <article className="group product-card">
      <div className="relative">
        {/* Not a link of its own: the name's link covers the whole card (.product-card-link). */}
        <ProductImage
          src={product.image}
          alt=""
          sizes="(min-width:1024px) 25vw,(min-width:768px) 33vw,50vw"
          priority={priority}
          className="product-card-image"
        />
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
          className="product-card-favourite hover:bg-background"
        />
      </div>
      <div className="product-card-body">
        <p className="product-card-category">{product.category}</p>
        <Heading className="product-card-name">
          <Link to={href} prefetch="intent" className="product-card-link">
            {product.name}
          </Link>
        </Heading>
        <div className="product-card-rating">
          <RatingStars rating={product.rating} size={14} />
          <span>{`(${product.reviewsCount})`}</span>
        </div>
        {product.swatches?.length ? <CardSwatches swatches={product.swatches} /> : null}
        <Price
          pricePaise={product.pricePaise}
          originalPricePaise={product.originalPricePaise}
          from={product.priceVaries}
          className="product-card-price"
        />
        {product.hasOptions && isPurchasable(product) ? (
          // A card can't say which colour or size: adding the default one would be a guess.
          <Link
            to={href}
            prefetch="intent"
            aria-label={`${CHOOSE_OPTIONS}: ${product.name}`}
            className={buttonVariants({ size: "sm", className: "product-card-cart" })}
          >
            {CHOOSE_OPTIONS}
          </Link>
        ) : (
          <AddToCartButton product={product} size="sm" nameInLabel className="product-card-cart" />
        )}
      </div>
    </article>
  );
}

const SHOWN_SWATCHES = 5;

/** A product's colours, small: the first five and how many more. */
function CardSwatches({ swatches }: { swatches: CardSwatch[] }) {
  const more = swatches.length - SHOWN_SWATCHES;
  return (
    <p className="mt-1 flex items-center gap-1" data-testid="card-swatches">
      <span className="sr-only">Colours: {swatches.map((s) => s.value).join(", ")}</span>
      {swatches.slice(0, SHOWN_SWATCHES).map((s) => (
        <span
          key={s.value}
          aria-hidden="true"
          title={s.value}
          className="size-3.5 rounded-full border border-border"
          style={{ backgroundColor: s.swatch }}
        />
      ))}
      {more > 0 ? (
        <span aria-hidden="true" className="text-muted-foreground text-xs">
          +{more}
        </span>
      ) : null}
    </p>
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
