import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link, useLocation } from "react-router";
import { buttonVariants } from "~/components/ui/button";

/**
 * Previous / Next links for a paginated admin list. The page number travels in the URL's `page`
 * parameter; the other parameters (search, filters) are kept.
 */
export function Pager({
  page,
  pageCount,
  label,
}: {
  page: number;
  pageCount: number;
  /** Names the navigation landmark, e.g. "Subscribers pages". */
  label: string;
}) {
  const { pathname, search } = useLocation();
  if (pageCount <= 1) return null;
  const href = (to: number) => {
    const params = new URLSearchParams(search);
    if (to <= 1) params.delete("page");
    else params.set("page", String(to));
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const link = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className={link} rel="prev">
          <ChevronLeft aria-hidden="true" />
          Previous
        </Link>
      ) : (
        <span className="w-24" />
      )}
      <p className="text-muted-foreground text-sm">
        Page {page} of {pageCount}
      </p>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={link} rel="next">
          Next
          <ChevronRight aria-hidden="true" />
        </Link>
      ) : (
        <span className="w-24" />
      )}
    </nav>
  );
}

/** A positive page number from a URL parameter (anything else is page 1). */
export function pageParam(url: URL): number {
  const n = Number(url.searchParams.get("page"));
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
}
