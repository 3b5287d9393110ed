import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { SpriteIcon } from "~/components/ui/icon-sprite";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import { useRootData } from "~/lib/root-data";

/** The heart icon's classes, unfilled and filled (the server swaps one for the other too). */
export function heartIconClass(isFavourite: boolean): string {
  return isFavourite ? "fill-rose-600 text-rose-600" : "text-foreground";
}

/** The favourite heart: needs sign-in; toggles on the server and updates at once. */
export function FavouriteButton({
  productId,
  productName,
  className,
  onSaved,
}: {
  productId: string;
  productName: string;
  className?: string;
  /** After a change is saved and announced: whether it is now a favourite. */
  onSaved?: (favourite: boolean) => void;
}) {
  const root = useRootData();
  const fetcher = useFetcher<{ ok: boolean; favourite?: boolean; error?: string }>({
    key: `favourite-${productId}`,
  });
  const stored = root?.favouriteIds.includes(productId) ?? false;
  const pending = fetcher.formData?.get("intent");
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const isFavourite = pending ? pending === "add" : stored;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast({ title: fetcher.data.favourite ? "Added to favourites" : "Removed from favourites" });
      onSavedRef.current?.(Boolean(fetcher.data.favourite));
    } else {
      toast({ title: "Failed to update favourite", variant: "destructive" });
    }
  }, [fetcher.state, fetcher.data]);

  const toggle = () => {
    if (!root?.viewer) {
      toast({
        title: "Sign in required",
        description: "Please sign in to save favourites.",
        variant: "destructive",
      });
      return;
    }
    fetcher.submit(
      { intent: isFavourite ? "remove" : "add", productId },
      { method: "post", action: "/api/favourites" },
    );
  };

  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      onClick={toggle}
      aria-pressed={isFavourite}
      aria-label={
        isFavourite ? `Remove ${productName} from favourites` : `Add ${productName} to favourites`
      }
      className={cn("rounded-full", className)}
      // Which product the heart is for: the server fills a signed-in customer's favourites in on
      // a page from the page cache (app/lib/personal-page.server.ts).
      data-favourite-id={productId}
    >
      <SpriteIcon name="heart" className={heartIconClass(isFavourite)} />
    </Button>
  );
}
