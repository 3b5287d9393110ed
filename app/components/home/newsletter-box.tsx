import { Mail } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

type NewsletterResult = { ok: true; message: string } | { ok: false; error: string };

/** The newsletter box: stores a subscriber; subscribing twice is fine and says so. */
export function NewsletterBox() {
  const fetcher = useFetcher<NewsletterResult>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);

  return (
    <aside aria-labelledby="newsletter-heading" className="rounded-lg border bg-card p-5">
      <Mail aria-hidden="true" className="size-6 text-primary" />
      <h3 id="newsletter-heading" className="mt-2 font-semibold text-lg">
        Get offers in your inbox
      </h3>
      <p className="mt-1 text-muted-foreground text-sm">
        New prints, festive offers and maker stories. No spam; unsubscribe any time.
      </p>
      <fetcher.Form
        ref={form}
        method="post"
        action="/api/newsletter"
        className="mt-4 space-y-2"
        noValidate
      >
        <Label htmlFor="newsletter-email">Email address</Label>
        <div className="flex gap-2">
          <Input
            id="newsletter-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            placeholder="you@example.com"
            aria-invalid={result && !result.ok ? true : undefined}
            aria-describedby="newsletter-status"
          />
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            Subscribe
          </Button>
        </div>
        <p
          id="newsletter-status"
          role="status"
          className={result && !result.ok ? "text-destructive text-sm" : "text-sm text-success"}
        >
          {result ? (result.ok ? result.message : result.error) : ""}
        </p>
      </fetcher.Form>
    </aside>
  );
}
