import { ChevronRight } from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { data, Link } from "react-router";
import { z } from "zod";
import { BackHomeButtons } from "~/components/layout/back-home-buttons";
import { AddToCartButton } from "~/components/product/add-to-cart-button";
import { FavouriteButton } from "~/components/product/favourite-button";
import { OptionPicker } from "~/components/product/option-picker";
import { Price } from "~/components/product/price";
import { ProductGrid } from "~/components/product/product-card";
import { ProductGallery } from "~/components/product/product-gallery";
import { QuantityStepper } from "~/components/product/quantity-stepper";
import { RatingStars } from "~/components/product/rating-stars";
import { ReviewSummary } from "~/components/product/review-summary";
import { PinBox } from "~/components/shipping/pin-box";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { log } from "~/lib/log.server.ts";
import { personalProductPageHandle } from "~/lib/public-page.ts";
import { skipPageCache } from "~/lib/request-context.server.ts";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import {
  getProduct,
  getProductChoices,
  getReviewStats,
  listProductReviews,
  listRelatedProducts,
} from "~/modules/catalog/products.server.ts";
import { reviewContext } from "~/modules/reviews/reviews.server.ts";
import { listingPathFor } from "~/rules/catalog-paths.ts";
import { paiseToRupeesText } from "~/rules/money.ts";
import {
  featureRows,
  percentOff,
  quantityLimit,
  stockLabel,
  summariseReviews,
} from "~/rules/product-display.ts";
import { jsonLd, originFrom, pageMeta } from "~/rules/seo.ts";
import {
  schemaPropertyOf,
  selectionFor,
  shownVariant,
  variantAfterPick,
  variantPath,
  variantStock,
} from "~/rules/variant-picker.ts";
import { orderedOptions, type Variant } from "~/rules/variants.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/product";

export const handle = personalProductPageHandle;

// Only a customer who bought the product can review it: the dialog (its form, validation and
// Radix Dialog) is loaded for them alone, not for every visitor of the page.
const ReviewDialog = lazy(() =>
  import("~/components/reviews/review-dialog").then((m) => ({ default: m.ReviewDialog })),
);

const reviewPageParam = z.coerce.number().int().min(1).max(1000).catch(1);
/** `?variant=<id>`: the variant the page shows (issue 22); anything else shows the default. */
const variantParam = z.uuid().nullable().catch(null);

export async function loader({ params, request }: Route.LoaderArgs) {
  if (!z.uuid().safeParse(params.id).success) {
    return data({ state: "invalid" as const }, { status: 404 });
  }
  const search = new URL(request.url).searchParams;
  const reviewPage = reviewPageParam.parse(search.get("reviews") ?? 1);
  const wantedVariant = variantParam.parse(search.get("variant")?.toLowerCase() ?? null);
  try {
    const rt = await runtime();
    const { db, pageCache } = rt;
    const id = params.id;
    // The catalogue's parts are read once per catalogue change, whoever asks (the page cache
    // hears of every change); the viewer's own parts every time.
    const [product, viewer, choices] = await Promise.all([
      pageCache.remember(`product ${id}`, () => getProduct(db, id)),
      getViewer(rt, request),
      pageCache.remember(`variants ${id}`, () => getProductChoices(db, id)),
    ]);
    if (!product) return data({ state: "not-found" as const }, { status: 404 });
    const shown = shownVariant(choices.variants, wantedVariant);
    // A variant that isn't (or no longer is) the product's shows the default: sent, not kept.
    if (wantedVariant && !shown.named) skipPageCache();
    const [related, reviewsPage, stats, review] = await Promise.all([
      pageCache
        .remember(`related ${id}`, () => listRelatedProducts(db, product))
        .catch(() => {
          skipPageCache();
          return [];
        }),
      // Reviews are secondary: a bad stored review must not take the product page down.
      pageCache
        .remember(`reviews ${id} ${reviewPage}`, () => listProductReviews(db, id, reviewPage))
        .catch((error) => {
          skipPageCache();
          log.error("product reviews failed to load", { error, productId: id });
          return { reviews: [], hasNext: false };
        }),
      pageCache.remember(`review stats ${id}`, () => getReviewStats(db, id)),
      // Verified buyers may write (or edit) their review from here.
      reviewContext(db, viewer?.id, product.id).catch(() => {
        skipPageCache();
        return { canReview: false, myReview: null };
      }),
    ]);
    return {
      state: "found" as const,
      product,
      options: choices.options,
      variants: choices.variants,
      variantId: shown.variant?.id ?? null,
      related,
      reviews: reviewsPage.reviews,
      hasNextReviews: reviewsPage.hasNext,
      reviewPage,
      summary: summariseReviews(product.reviewsList, stats),
      review,
    };
  } catch (error) {
    log.error("product page failed to load", { error, productId: params.id });
    return data({ state: "error" as const }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const origin = originFrom(matches);
  if (loaderData?.state !== "found") {
    return [{ title: "Product not found — LayerKart" }, { name: "robots", content: "noindex" }];
  }
  const { product, summary, options, variants } = loaderData;
  const path = `/product/${product.id}`;
  const availabilityOf = (p: Parameters<typeof stockLabel>[0]) =>
    !p.isActive
      ? "https://schema.org/Discontinued"
      : stockLabel(p) === "In Stock"
        ? "https://schema.org/InStock"
        : "https://schema.org/OutOfStock";
  const availability = availabilityOf(product);
  const categoryPath = listingPathFor(product.category);
  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${origin}${url}`);
  const rating =
    summary.totalReviews > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: summary.averageRating,
            reviewCount: summary.totalReviews,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {};
  // A product with options is a group of variants, each with its own offer (issue 22); one
  // without is described as it always was.
  const productLd =
    options.length > 0
      ? {
          "@context": "https://schema.org",
          "@type": "ProductGroup",
          name: product.name,
          description: product.description,
          productGroupID: product.id,
          image: product.images
            .map((i) => i.url)
            .filter(Boolean)
            .map(absolute),
          category: product.category,
          brand: { "@type": "Brand", name: "LayerKart" },
          variesBy: options.map((o) => {
            const property = schemaPropertyOf(o.name);
            return property ? `https://schema.org/${property}` : o.name;
          }),
          hasVariant: variants
            .filter((v) => v.isActive)
            .map((v) => variantLd(v, options, product, origin, availabilityOf, absolute)),
          ...rating,
        }
      : {
          "@context": "https://schema.org",
          "@type": "Product",
          name: product.name,
          description: product.description,
          sku: product.id,
          image: product.images
            .map((i) => i.url)
            .filter(Boolean)
            .map(absolute),
          category: product.category,
          brand: { "@type": "Brand", name: "LayerKart" },
          offers: {
            "@type": "Offer",
            url: `${origin}${path}`,
            priceCurrency: "INR",
            price: paiseToRupeesText(product.pricePaise),
            availability,
            itemCondition: "https://schema.org/NewCondition",
          },
          ...rating,
        };
  return [
    ...pageMeta({
      title: product.name,
      description: product.description.slice(0, 160) || `${product.name} from LayerKart.`,
      path,
      origin,
      image: product.image,
      type: "product",
    }),
    jsonLd(productLd),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Home", item: `${origin}/` },
        ...(categoryPath
          ? [
              {
                "@type": "ListItem",
                position: 2,
                name: product.category,
                item: `${origin}${categoryPath}`,
              },
            ]
          : []),
        {
          "@type": "ListItem",
          position: categoryPath ? 3 : 2,
          name: product.name,
          item: `${origin}${path}`,
        },
      ],
    }),
  ];
};

type Found = Extract<Route.ComponentProps["loaderData"], { state: "found" }>;

/** One variant of a product group, with its offer at its own address. */
function variantLd(
  v: Variant,
  options: Found["options"],
  product: Found["product"],
  origin: string,
  availabilityOf: (p: Parameters<typeof stockLabel>[0]) => string,
  absolute: (url: string) => string,
) {
  const values = orderedOptions(options, v);
  const images = (v.images.length > 0 ? v.images : product.images)
    .map((i) => i.url)
    .filter(Boolean);
  const properties: Record<string, string> = {};
  for (const option of options) {
    const property = schemaPropertyOf(option.name);
    const value = values.find((x) => x.name === option.name);
    if (property && value) properties[property] = value.value;
  }
  return {
    "@type": "Product",
    sku: v.sku ?? v.id,
    name: `${product.name} (${values.map((x) => x.value).join(", ")})`,
    image: images.map(absolute),
    ...properties,
    offers: {
      "@type": "Offer",
      url: `${origin}${variantPath(product.id, v.id)}`,
      priceCurrency: "INR",
      price: paiseToRupeesText(v.pricePaise),
      availability: availabilityOf(variantStock(product, v)),
      itemCondition: "https://schema.org/NewCondition",
    },
  };
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.state !== "found") return <ProductProblem state={loaderData.state} />;
  return <ProductDetail {...loaderData} />;
}

function ProductProblem({ state }: { state: "invalid" | "not-found" | "error" }) {
  const heading =
    state === "invalid"
      ? "Invalid product id"
      : state === "error"
        ? "Failed to load product"
        : "Product not found";
  const detail =
    state === "error"
      ? "Something went wrong while loading this product. Please try again in a moment."
      : "The product you are looking for doesn't exist or is no longer available. Browse our other prints instead.";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="font-bold text-3xl">{heading}</h1>
      <p className="text-muted-foreground">{detail}</p>
      {state === "invalid" ? <p className="font-medium">Product not found</p> : null}
      <Link to="/" className={buttonVariants()}>
        Return Home
      </Link>
    </section>
  );
}

function ProductDetail({
  product,
  options,
  variants,
  variantId,
  related,
  reviews,
  hasNextReviews,
  reviewPage,
  summary,
  review,
}: Found) {
  const [quantity, setQuantity] = useState(1);
  // The variant chosen on this page (the server's until a pick), for this product only.
  const [picked, setPicked] = useState({ productId: product.id, variantId });
  const variant =
    variants.find(
      (v) => v.id === (picked.productId === product.id ? picked.variantId : variantId),
    ) ?? null;
  // A product without options is its row, exactly as before variants; one with options shows
  // the chosen variant's price, stock and pictures.
  const chosen =
    options.length > 0 && variant
      ? {
          ...product,
          ...variantStock(product, variant),
          pricePaise: variant.pricePaise,
          originalPricePaise: variant.originalPricePaise,
          // The variant's own prices say what is off, not the product's single figure.
          discount: 0,
          image: variant.images[0]?.url ?? product.image,
        }
      : product;
  const selection = useMemo(() => selectionFor(options, variant), [options, variant]);
  const off = percentOff(chosen);
  const stock = stockLabel(chosen);
  const features = featureRows(product.features, product.featuresKv);
  const categoryPath = listingPathFor(product.category);
  const images = (options.length > 0 && variant?.images.length ? variant.images : product.images)
    .map((i) => i.url)
    .filter(Boolean);

  const pick = (optionId: string, valueId: string) => {
    const next = variantAfterPick(options, variants, selection, optionId, valueId);
    if (!next) return;
    setPicked({ productId: product.id, variantId: next.id });
    // The address names the variant (shareable; the server renders it), without a navigation.
    const url = new URL(window.location.href);
    url.searchParams.set("variant", next.id);
    window.history.replaceState(
      window.history.state,
      "",
      `${url.pathname}${url.search}${url.hash}`,
    );
  };

  // Next and Previous bring the reader to the new page of reviews, and keyboard focus with them:
  // the link pressed may not exist on the new page (no Next on the last), which left focus on
  // <body>. Only on a change of page of the same product, never on arrival.
  const reviewsHeading = useRef<HTMLHeadingElement>(null);
  const shownPage = useRef({ productId: product.id, page: reviewPage });
  useEffect(() => {
    const before = shownPage.current;
    shownPage.current = { productId: product.id, page: reviewPage };
    if (before.productId === product.id && before.page !== reviewPage) {
      reviewsHeading.current?.focus({ preventScroll: true });
    }
  }, [product.id, reviewPage]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <nav aria-label="Breadcrumb" className="mb-4 text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-muted-foreground">
          <li>
            <Link to="/" className="hover:text-foreground hover:underline">
              Home
            </Link>
          </li>
          <ChevronRight aria-hidden="true" className="size-4" />
          <li>
            {categoryPath ? (
              <Link to={categoryPath} className="hover:text-foreground hover:underline">
                {product.category}
              </Link>
            ) : (
              product.category
            )}
          </li>
          <ChevronRight aria-hidden="true" className="size-4" />
          <li aria-current="page" className="text-foreground">
            {product.name}
          </li>
        </ol>
      </nav>

      <div className="grid gap-8 lg:grid-cols-2">
        <ProductGallery
          key={images.join(" ")}
          images={images.length ? images : [product.image ?? ""]}
          name={product.name}
        />
        <div className="space-y-5">
          <div className="flex flex-wrap items-center gap-2">
            <Badge
              data-testid="stock-badge"
              variant={
                stock === "In Stock"
                  ? "success"
                  : stock === "Inactive"
                    ? "secondary"
                    : "destructive"
              }
            >
              {stock}
            </Badge>
            {product.badge ? <Badge variant="outline">{product.badge}</Badge> : null}
            {off > 0 ? (
              <Badge variant="default" data-testid="percent-off">
                {off}% off
              </Badge>
            ) : null}
          </div>
          <div>
            <p className="text-muted-foreground text-sm">
              {product.category}
              {product.subcategory ? ` · ${product.subcategory}` : ""}
            </p>
            <h1 className="mt-1 font-bold text-3xl leading-tight">{product.name}</h1>
            <a
              href="#reviews"
              className="mt-2 inline-flex items-center gap-2 text-sm hover:underline"
            >
              <RatingStars rating={summary.averageRating} />
              <span>
                {summary.averageRating.toFixed(1)} ({summary.totalReviews}{" "}
                {summary.totalReviews === 1 ? "review" : "reviews"})
              </span>
            </a>
          </div>
          <Price
            pricePaise={chosen.pricePaise}
            originalPricePaise={chosen.originalPricePaise}
            size="lg"
            testId={options.length > 0 ? "product-price" : undefined}
          />
          {options.length > 0 ? (
            <OptionPicker
              options={options}
              variants={variants}
              selection={selection}
              onPick={pick}
            />
          ) : null}
          <p className="text-muted-foreground text-sm">
            Tax and shipping are added at checkout. Standard Shipping across India.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <QuantityStepper
              value={quantity}
              onChange={setQuantity}
              max={Math.max(1, quantityLimit(chosen))}
            />
            <AddToCartButton
              product={chosen}
              chosenVariant={
                options.length > 0 && variant
                  ? { id: variant.id, options: orderedOptions(options, variant) }
                  : undefined
              }
              quantity={quantity}
              size="lg"
              className="flex-1 sm:flex-none"
            />
            <FavouriteButton productId={product.id} productName={product.name} className="border" />
          </div>
          <PinBox item={{ productId: product.id }} />
          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="font-semibold text-lg">
              Description
            </h2>
            <p className="mt-2 whitespace-pre-line leading-relaxed">{product.description}</p>
          </section>
          {features.length > 0 ? (
            <section aria-labelledby="features-heading">
              <h2 id="features-heading" className="font-semibold text-lg">
                Features
              </h2>
              <ul className="mt-2 space-y-1" data-testid="features">
                {features.map((f, i) => (
                  <li key={i} className="flex gap-2">
                    <span aria-hidden="true" className="text-primary">
                      •
                    </span>
                    {f.key ? (
                      <span>
                        <span className="font-medium">{f.key}:</span> {f.value}
                      </span>
                    ) : (
                      <span>{f.value}</span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </div>

      <section id="reviews" aria-labelledby="reviews-heading" className="mt-12 scroll-mt-20">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2
            id="reviews-heading"
            ref={reviewsHeading}
            tabIndex={-1}
            className="font-bold text-2xl focus:outline-none"
          >
            Customer Reviews
          </h2>
          {review.canReview ? (
            <Suspense
              fallback={
                <Button type="button" variant="outline" disabled>
                  {review.myReview !== null ? "Edit Review" : "Write Review"}
                </Button>
              }
            >
              <ReviewDialog
                productId={product.id}
                productName={product.name}
                existing={review.myReview}
              />
            </Suspense>
          ) : null}
        </div>
        <ReviewSummary summary={summary} />
        {reviews.length === 0 ? (
          <p className="mt-6 text-muted-foreground">No reviews yet.</p>
        ) : (
          <ul className="mt-6 divide-y rounded-lg border bg-card" data-testid="reviews">
            {reviews.map((r) => (
              <li key={r.key} className="space-y-1 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <RatingStars rating={r.rating} size={14} />
                  {r.title ? <h3 className="font-semibold">{r.title}</h3> : null}
                </div>
                <p className="text-muted-foreground text-xs">
                  {r.name} ·{" "}
                  <time dateTime={r.date}>
                    {new Date(r.date).toLocaleDateString("en-IN", {
                      dateStyle: "medium",
                      timeZone: "Asia/Kolkata",
                    })}
                  </time>
                  {r.isVerifiedPurchase ? " · Verified purchase" : ""}
                </p>
                {r.review ? <p className="text-sm leading-relaxed">{r.review}</p> : null}
              </li>
            ))}
          </ul>
        )}
        {reviewPage > 1 || hasNextReviews ? (
          <nav aria-label="Review pages" className="mt-4 flex items-center justify-center gap-3">
            {reviewPage > 1 ? (
              // To the top of the reviews: on a phone the shorter page would leave the reader past it.
              <Link
                to={reviewPage === 2 ? "?#reviews" : `?reviews=${reviewPage - 1}#reviews`}
                className={buttonVariants({ variant: "outline", size: "sm" })}
              >
                Previous
              </Link>
            ) : null}
            <span className="text-sm" data-testid="review-page">
              Page {reviewPage}
            </span>
            {hasNextReviews ? (
              <Link
                to={`?reviews=${reviewPage + 1}#reviews`}
                className={buttonVariants({ variant: "outline", size: "sm" })}
              >
                Next
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-12">
          <h2 id="related-heading" className="mb-4 font-bold text-2xl">
            Related Products
          </h2>
          <ProductGrid products={related} label="Related Products" />
        </section>
      ) : null}
      <div className="mt-10">
        <BackHomeButtons />
      </div>
    </div>
  );
}
