import { Search } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/cn";
import { useJsonLoad } from "~/lib/use-json-load";

type Suggestion = { id: string; name: string; category: string };

/** The header's search box: suggestions as you type (a listbox), Enter opens the results page. */
export function SearchBox({
  className,
  label = "Site search",
}: {
  className?: string;
  label?: string;
}) {
  // Offline, typing keeps the page (and the last suggestions) instead of an error page.
  const fetcher = useJsonLoad<{ suggestions: Suggestion[] }>();
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // A failed read shows none: the last answer was for another query.
  const suggestions = value.trim() && !fetcher.failed ? (fetcher.data?.suggestions ?? []) : [];

  useEffect(() => () => clearTimeout(timer.current), []);

  const onChange = (next: string) => {
    setValue(next);
    setOpen(true);
    setActive(-1);
    clearTimeout(timer.current);
    if (next.trim().length >= 2) {
      timer.current = setTimeout(
        () => void fetcher.load(`/api/search?q=${encodeURIComponent(next.trim())}`),
        150,
      );
    }
  };

  return (
    <Form
      method="get"
      action="/search"
      role="search"
      aria-label={label}
      className={cn("relative", className)}
      onSubmit={(e) => {
        if (active >= 0 && suggestions[active]) {
          e.preventDefault();
          navigate(`/product/${suggestions[active].id}`);
        }
        setOpen(false);
      }}
    >
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search products
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        id={`${listId}-input`}
        name="q"
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(suggestions.length - 1, a + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(-1, a - 1));
          } else if (e.key === "Escape" && open && suggestions.length > 0) {
            // Closes the suggestions only; a second Escape reaches the menu around the box.
            e.preventDefault();
            setOpen(false);
          }
        }}
        placeholder="Search prints…"
        autoComplete="off"
        role="combobox"
        aria-expanded={open && suggestions.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        className="pl-8"
      />
      {open && suggestions.length > 0 ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          className="absolute top-full right-0 left-0 z-40 mt-1 overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-lg"
        >
          {suggestions.map((s, i) => (
            // biome-ignore lint/a11y/useFocusableInteractive: options are reached with the arrow keys from the combobox (aria-activedescendant), not by Tab
            <div
              key={s.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn("cursor-pointer px-3 py-2 text-sm", i === active && "bg-accent")}
              onMouseDown={(e) => {
                e.preventDefault();
                setOpen(false);
                navigate(`/product/${s.id}`);
              }}
            >
              <span className="block font-medium">{s.name}</span>
              <span className="block text-muted-foreground text-xs">{s.category}</span>
            </div>
          ))}
        </div>
      ) : null}
    </Form>
  );
}
