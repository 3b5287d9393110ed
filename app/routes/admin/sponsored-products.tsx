import { ArrowDown, ArrowUp, Plus, Search, Star, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { data, useFetcher } from "react-router";
import { ProductImage } from "~/components/product/product-image";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { queryParam, readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  listSponsored,
  type SponsoredEntry,
  searchProductsByName,
  setSponsoredProducts,
  UnknownProductsError,
} from "~/modules/sponsored/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { formatPaise } from "~/rules/money.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { MAX_SPONSORED, sponsoredIdsSchema } from "~/rules/sponsored.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/sponsored-products";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const q = queryParam(request.url, "q") ?? "";
  const [sponsored, results] = await Promise.all([listSponsored(db), searchProductsByName(db, q)]);
  return { sponsored, results, q };
}

type ActionResult = { ok: true } | { ok: false; title: string; description: string };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== "save") {
    return data<ActionResult>(
      { ok: false, title: "Failed to save", description: "Unknown request." },
      { status: 400 },
    );
  }
  const parsed = sponsoredIdsSchema.safeParse(form.getAll("productId").map(String));
  if (!parsed.success) {
    return data<ActionResult>(
      { ok: false, title: "Failed to save", description: parsed.error.issues[0].message },
      { status: 400 },
    );
  }
  const { db } = await runtime();
  try {
    await setSponsoredProducts(db, viewer, parsed.data);
    return data<ActionResult>({ ok: true });
  } catch (error) {
    if (error instanceof UnknownProductsError) {
      return data<ActionResult>(
        {
          ok: false,
          title: "Failed to save",
          description: "A chosen product no longer exists. Reload the page and try again.",
        },
        { status: 400 },
      );
    }
    log.error("sponsored products save failed", { error, userId: viewer.id });
    return data<ActionResult>(
      {
        ok: false,
        title: "Failed to save",
        description: "No changes were saved. Please try again.",
      },
      { status: 500 },
    );
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Sponsored Products · Admin",
    description: "Choose and order the products in the home page carousel.",
    path: "/admin/sponsored-products",
    origin: originFrom(matches),
    noindex: true,
  });
}

const sameOrder = (a: SponsoredEntry[], b: SponsoredEntry[]) =>
  a.length === b.length && a.every((e, i) => e.productId === b[i].productId);

export default function AdminSponsored({ loaderData }: Route.ComponentProps) {
  const saved = loaderData.sponsored;
  const [list, setList] = useState<SponsoredEntry[]>(saved);
  const search = useFetcher<typeof loader>();
  const save = useFetcher<ActionResult>();
  const busy = save.state !== "idle";
  const id = useId();
  const [query, setQuery] = useState("");
  const dirty = !sameOrder(list, saved);

  // After a save (or another admin's change) the server's order becomes the list again.
  const savedKey = saved.map((s) => s.productId).join(",");
  const lastSavedKey = useRef(savedKey);
  useEffect(() => {
    if (lastSavedKey.current === savedKey) return;
    lastSavedKey.current = savedKey;
    setList(saved);
  }, [savedKey, saved]);

  useOutcomeToast(save, (result) =>
    result.ok
      ? { title: "Sponsored products saved", description: "The home carousel is updated." }
      : { title: result.title, description: result.description, variant: "destructive" },
  );

  // Search as the admin types (a short pause first). `search` changes identity on every load,
  // so it is left out of the dependencies on purpose.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text starts a search
  useEffect(() => {
    const q = query.trim();
    if (q === "") return;
    const timer = setTimeout(() => {
      search.load(`/admin/sponsored-products?q=${encodeURIComponent(q)}`);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  const results = query.trim() === "" ? [] : (search.data?.results ?? []);
  const full = list.length >= MAX_SPONSORED;
  const inList = new Set(list.map((e) => e.productId));

  const move = (index: number, delta: number) =>
    setList((l) => {
      const next = [...l];
      const [item] = next.splice(index, 1);
      next.splice(index + delta, 0, item);
      return next;
    });

  const submit = () => {
    const form = new FormData();
    form.set("intent", "save");
    for (const e of list) form.append("productId", e.productId);
    save.submit(form, { method: "post" });
  };

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="mb-6 flex items-center gap-3">
        <Star aria-hidden="true" className="size-8 shrink-0 text-primary" />
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Sponsored Products</h1>
          <p className="text-muted-foreground">
            The home page carousel shows these products, in this order (at most {MAX_SPONSORED}).
          </p>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby={`${id}-current`} className="rounded-xl border bg-card p-4">
          <h2 id={`${id}-current`} className="mb-3 font-semibold text-xl">
            In the carousel ({list.length})
          </h2>
          {list.length === 0 ? (
            <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
              No sponsored products: the home page shows a 'Coming soon' slide.
            </p>
          ) : (
            <ol className="grid gap-2" data-testid="sponsored-list">
              {list.map((e, i) => (
                <li
                  key={e.productId}
                  className="flex flex-wrap items-center gap-3 rounded-lg border p-2"
                >
                  <span className="w-6 text-center font-semibold text-muted-foreground">
                    {i + 1}
                  </span>
                  <ProductImage
                    src={e.image}
                    alt=""
                    sizes="48px"
                    className="size-12 shrink-0 rounded object-cover"
                  />
                  <div className="min-w-0 flex-1 basis-36">
                    <p className="break-words font-medium">{e.name}</p>
                    <p className="text-muted-foreground text-sm">
                      {formatPaise(e.pricePaise)} · {e.category}
                    </p>
                    {e.isActive ? null : (
                      <Badge variant="outline" className="mt-1">
                        Inactive: not shown on the home page
                      </Badge>
                    )}
                  </div>
                  <div className="ml-auto flex gap-1">
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      aria-label={`Move ${e.name} up`}
                      disabled={i === 0 || busy}
                      onClick={() => move(i, -1)}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      aria-label={`Move ${e.name} down`}
                      disabled={i === list.length - 1 || busy}
                      onClick={() => move(i, 1)}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      aria-label={`Remove ${e.name}`}
                      disabled={busy}
                      onClick={() => setList((l) => l.filter((x) => x.productId !== e.productId))}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              ))}
            </ol>
          )}
          <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
            {dirty ? (
              <p className="text-muted-foreground text-sm sm:mr-auto" role="status">
                Unsaved changes
              </p>
            ) : null}
            <Button
              type="button"
              variant="outline"
              disabled={!dirty || busy}
              onClick={() => setList(saved)}
            >
              Undo changes
            </Button>
            <Button type="button" disabled={!dirty || busy} onClick={submit}>
              {busy ? "Saving…" : "Save"}
            </Button>
          </div>
        </section>

        <section aria-labelledby={`${id}-add`} className="rounded-xl border bg-card p-4">
          <h2 id={`${id}-add`} className="mb-3 font-semibold text-xl">
            Add products
          </h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const q = query.trim();
              if (q) search.load(`/admin/sponsored-products?q=${encodeURIComponent(q)}`);
            }}
            className="grid gap-2"
          >
            <Label htmlFor={`${id}-q`}>Search products by name</Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-q`}
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                autoComplete="off"
                maxLength={100}
              />
              <Button type="submit" size="icon" aria-label="Search">
                <Search aria-hidden="true" />
              </Button>
            </div>
          </form>
          <div aria-live="polite" className="mt-3">
            {query.trim() !== "" && search.state === "idle" && results.length === 0 ? (
              <p className="text-muted-foreground text-sm">No products match.</p>
            ) : null}
            {full ? (
              <p className="mb-2 text-muted-foreground text-sm">
                The carousel is full: remove a product to add another.
              </p>
            ) : null}
          </div>
          {results.length > 0 ? (
            <ul className="grid gap-2" aria-label="Search results">
              {results.map((r) => (
                <li key={r.productId} className="flex items-center gap-3 rounded-lg border p-2">
                  <div className="min-w-0 flex-1">
                    <p className="break-words font-medium">{r.name}</p>
                    <p className="text-muted-foreground text-sm">
                      {formatPaise(r.pricePaise)} · {r.category}
                      {r.isActive ? "" : " · inactive"}
                    </p>
                  </div>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={inList.has(r.productId) || full || busy}
                    aria-label={
                      inList.has(r.productId) ? `${r.name} is in the carousel` : `Add ${r.name}`
                    }
                    onClick={() => setList((l) => [...l, r])}
                  >
                    <Plus aria-hidden="true" />
                    {inList.has(r.productId) ? "Added" : "Add"}
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      </div>
    </div>
  );
}
