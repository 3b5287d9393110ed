import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { EVERY_TAP } from "~/lib/early-taps";
import { ProductImage } from "./product-image";

/** The product page's gallery: previous/next, thumbnails, a 160 ms cross-fade. */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const list = images.length > 0 ? images : [""];
  const count = list.length;
  const go = (i: number) => setIndex(((i % count) + count) % count);

  return (
    <div className="space-y-3">
      <div className="relative overflow-hidden rounded-xl border bg-muted">
        <div className="grid">
          {list.map((src, i) => (
            <div
              key={`${src}-${i}`}
              className={cn(
                "col-start-1 row-start-1 transition-opacity duration-[160ms] ease-out",
                i === index ? "opacity-100" : "pointer-events-none opacity-0",
              )}
              aria-hidden={i !== index}
            >
              <ProductImage
                src={src}
                alt={count > 1 ? `${name}, image ${i + 1} of ${count}` : name}
                sizes="(min-width: 1024px) 50vw, 100vw"
                priority={i === 0}
                className="aspect-square w-full object-cover"
              />
            </div>
          ))}
        </div>
        {count > 1 ? (
          <>
            <Button
              variant="secondary"
              size="icon"
              className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full opacity-90"
              aria-label="Previous image"
              type="button"
              {...EVERY_TAP}
              onClick={() => go(index - 1)}
            >
              <ChevronLeft aria-hidden="true" />
            </Button>
            <Button
              variant="secondary"
              size="icon"
              className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full opacity-90"
              aria-label="Next image"
              type="button"
              {...EVERY_TAP}
              onClick={() => go(index + 1)}
            >
              <ChevronRight aria-hidden="true" />
            </Button>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <ul className="flex gap-2" aria-label="Images">
          {list.map((src, i) => (
            <li key={`${src}-thumb-${i}`}>
              <button
                type="button"
                onClick={() => go(i)}
                aria-label={`Show image ${i + 1} of ${count}`}
                aria-current={i === index ? "true" : undefined}
                className={cn(
                  "block size-16 overflow-hidden rounded-md border-2 transition-colors duration-150 sm:size-20",
                  i === index
                    ? "border-primary"
                    : "border-transparent opacity-75 hover:opacity-100",
                )}
              >
                <ProductImage src={src} alt="" sizes="80px" className="size-full object-cover" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
