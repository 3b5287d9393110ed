import { LoaderCircle, Star } from "lucide-react";
import { useId, useState } from "react";
import { useFetcher } from "react-router";
import { Button, type ButtonProps } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import {
  DEFAULT_REVIEW_RATING,
  isValidRating,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
  reviewText,
} from "~/rules/review-schema.ts";

/** The customer's existing review, when there is one (opens the dialog in edit mode). */
export type ExistingReview = { rating: number; title: string | null; review: string | null };

/** What /api/reviews answers. */
type ReviewResult =
  | { ok: true; created: boolean }
  | { ok: false; error: string; message: string }
  | { error: string };

/**
 * 'Write Review' or 'Edit Review' and its dialog (SPEC.md §2 "Review dialog"): star rating
 * (default 5), optional title and review text with counters. Saving revalidates the page, so the
 * review list and summary show the change.
 */
export function ReviewDialog({
  productId,
  productName,
  existing,
  ...buttonProps
}: {
  productId: string;
  productName: string;
  existing: ExistingReview | null;
} & Omit<ButtonProps, "onClick" | "children">) {
  const [open, setOpen] = useState(false);
  const editing = existing !== null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" {...buttonProps}>
          {editing ? "Edit Review" : "Write Review"}
        </Button>
      </DialogTrigger>
      {open ? (
        <ReviewForm
          productId={productId}
          productName={productName}
          existing={existing}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </Dialog>
  );
}

function ReviewForm({
  productId,
  productName,
  existing,
  onDone,
}: {
  productId: string;
  productName: string;
  existing: ExistingReview | null;
  onDone: () => void;
}) {
  const fetcher = useFetcher<ReviewResult>();
  const [rating, setRating] = useState(existing?.rating ?? DEFAULT_REVIEW_RATING);
  const [title, setTitle] = useState(existing?.title ?? "");
  const [text, setText] = useState(existing?.review ?? "");
  const id = useId();
  const busy = fetcher.state !== "idle";

  useOutcomeToast(
    fetcher,
    (result) => {
      if ("ok" in result && result.ok) {
        return { title: result.created ? reviewText.submitted : reviewText.updated };
      }
      if ("message" in result && result.error === reviewText.invalidRatingTitle) {
        return { title: result.error, description: result.message, variant: "destructive" };
      }
      return {
        title: reviewText.errorTitle,
        description: ("message" in result && result.message) || reviewText.errorFallback,
        variant: "destructive",
      };
    },
    (result) => {
      if ("ok" in result && result.ok) onDone();
    },
  );

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!isValidRating(rating)) {
      toast({
        title: reviewText.invalidRatingTitle,
        description: reviewText.invalidRatingDescription,
        variant: "destructive",
      });
      return;
    }
    const form = new FormData();
    form.set("productId", productId);
    form.set("rating", String(rating));
    // Blank text is sent as absent.
    if (title.trim()) form.set("title", title.trim());
    if (text.trim()) form.set("review", text.trim());
    fetcher.submit(form, { method: "post", action: "/api/reviews" });
  };

  return (
    <DialogContent aria-busy={busy}>
      <DialogHeader>
        <DialogTitle>{existing ? "Edit Review" : "Write Review"}</DialogTitle>
        <DialogDescription>{productName}</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4">
        <fieldset disabled={busy} className="grid gap-4">
          <StarRatingInput value={rating} onChange={setRating} />
          <div className="grid gap-2">
            <div className="flex items-baseline justify-between">
              <Label htmlFor={`${id}-title`}>Title (optional)</Label>
              <span className="text-muted-foreground text-xs" data-testid="title-counter">
                {title.length}/{REVIEW_TITLE_MAX}
              </span>
            </div>
            <Input
              id={`${id}-title`}
              name="title"
              value={title}
              maxLength={REVIEW_TITLE_MAX}
              onChange={(e) => setTitle(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <div className="flex items-baseline justify-between">
              <Label htmlFor={`${id}-review`}>Review (optional)</Label>
              <span className="text-muted-foreground text-xs" data-testid="review-counter">
                {text.length}/{REVIEW_TEXT_MAX}
              </span>
            </div>
            <Textarea
              id={`${id}-review`}
              name="review"
              rows={5}
              value={text}
              maxLength={REVIEW_TEXT_MAX}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
        </fieldset>
        <DialogFooter>
          <Button type="submit" disabled={busy}>
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
            {existing ? "Update Review" : "Submit Review"}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}

/** Five native radios drawn as stars: arrow keys move the choice, as in any radio group. */
function StarRatingInput({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  const name = useId();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 font-medium text-sm">Rating</legend>
      <div className="flex gap-1">
        {[1, 2, 3, 4, 5].map((star) => (
          <label key={star} className="cursor-pointer">
            <input
              type="radio"
              name={name}
              value={star}
              checked={value === star}
              onChange={() => onChange(star)}
              className="peer sr-only"
            />
            <span className="sr-only">
              {star} {star === 1 ? "star" : "stars"}
            </span>
            <Star
              aria-hidden="true"
              className={cn(
                "size-8 rounded-sm transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2",
                star <= value ? "fill-amber-400 text-amber-500" : "text-muted-foreground",
              )}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
