import { ChevronLeft, ChevronRight, Pause, Play } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { ProductImage } from "~/components/product/product-image";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { EVERY_TAP } from "~/lib/early-taps";
import { formatPaise } from "~/rules/money.ts";
import type { SponsoredSlide } from "~/rules/sponsored.ts";

export const CAROUSEL_INTERVAL_MS = 5000;

function usePrefersReducedMotion() {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return reduced;
}

/**
 * The home page's sponsored-product carousel: full width, advances every 5 s, previous/next and
 * dots, arrow keys; pauses on hover or focus, when the visitor pauses it, and for reduced motion.
 */
export function SponsoredCarousel({ slides }: { slides: SponsoredSlide[] }) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const count = slides.length;
  const go = useCallback((i: number) => setIndex(((i % count) + count) % count), [count]);
  const paused = hovered || focused || stopped || reducedMotion;

  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [count, paused]);

  if (count === 0) {
    return (
      <section
        aria-roledescription="carousel"
        aria-label="Sponsored products"
        className="flex min-h-56 flex-col items-center justify-center rounded-xl bg-accent px-6 py-12 text-center text-accent-foreground sm:min-h-72"
      >
        <h2 className="font-bold text-2xl sm:text-3xl">Sponsored products</h2>
        <p className="mt-2 text-lg">Coming soon</p>
      </section>
    );
  }

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Sponsored products"
      className="relative overflow-hidden rounded-xl bg-accent text-accent-foreground"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") go(index + 1);
        else if (e.key === "ArrowLeft") go(index - 1);
      }}
    >
      <div aria-live={paused ? "polite" : "off"}>
        {slides.map((slide, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the ARIA carousel pattern's slides are role="group"
          <div
            key={slide.productId}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
            data-testid="carousel-slide"
          >
            <Link
              to={`/product/${slide.productId}`}
              className="grid items-center gap-4 p-5 sm:grid-cols-[1fr_auto] sm:gap-8 sm:p-10"
            >
              <div className="order-2 sm:order-1">
                <p className="font-medium text-sm uppercase tracking-wide opacity-80">
                  Sponsored · {slide.category}
                </p>
                <h2 className="mt-1 font-bold text-2xl sm:text-4xl">{slide.name}</h2>
                <p className="mt-2 line-clamp-2 max-w-xl text-sm sm:text-base">
                  {slide.description}
                </p>
                <p className="mt-3 font-semibold text-xl">{formatPaise(slide.pricePaise)}</p>
              </div>
              <div className="order-1 mx-auto w-40 sm:order-2 sm:w-64">
                <ProductImage
                  src={slide.image}
                  alt={slide.name}
                  sizes="(min-width: 640px) 256px, 160px"
                  priority={i === 0}
                  className="aspect-square w-full rounded-lg object-cover shadow-md"
                />
              </div>
            </Link>
          </div>
        ))}
      </div>
      {count > 1 ? (
        <div className="flex items-center justify-center gap-1 pb-3">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Previous slide"
            type="button"
            {...EVERY_TAP}
            onClick={() => go(index - 1)}
          >
            <ChevronLeft aria-hidden="true" />
          </Button>
          <div className="flex items-center">
            {slides.map((slide, i) => (
              <button
                key={slide.productId}
                type="button"
                aria-label={`Show slide ${i + 1}: ${slide.name}`}
                aria-current={i === index ? "true" : undefined}
                onClick={() => go(i)}
                className="flex size-8 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span
                  className={cn(
                    "block size-2.5 rounded-full bg-current transition-opacity",
                    i === index ? "opacity-100" : "opacity-35",
                  )}
                />
              </button>
            ))}
          </div>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Next slide"
            type="button"
            {...EVERY_TAP}
            onClick={() => go(index + 1)}
          >
            <ChevronRight aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={stopped ? "Play slideshow" : "Pause slideshow"}
            onClick={() => setStopped((s) => !s)}
          >
            {stopped ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
