import { Minus, Plus, RotateCcw, Tags, Trash2, Undo2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { data, useFetcher } from "react-router";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  applyCategoryChanges,
  type CategoryChangeResult,
  CategoryConflictError,
  listCategoriesWithCounts,
} from "~/modules/catalog/categories.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  canAdd,
  canDelete,
  categoryChangesSchema,
  categoryKey,
  duplicateMessage,
  emptyStaging,
  hasChanges,
  MAX_CATEGORY_NAME_LENGTH,
  type Staging,
  stageAdd,
  stageDelete,
  suggestCategories,
  unstageDelete,
} from "~/rules/category-staging.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/categories";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  return { categories: await listCategoriesWithCounts(db) };
}

type ActionResult =
  | { ok: true; result: CategoryChangeResult }
  | { ok: false; title: string; description: string };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== "apply") {
    return data<ActionResult>(
      { ok: false, title: "Failed to save", description: "Unknown request." },
      { status: 400 },
    );
  }
  const parsed = categoryChangesSchema.safeParse({
    add: form.getAll("add").map(String),
    delete: form.getAll("delete").map(String),
  });
  if (!parsed.success) {
    return data<ActionResult>(
      {
        ok: false,
        title: "Failed to save",
        description: parsed.error.issues[0]?.message ?? "Please check the lists.",
      },
      { status: 400 },
    );
  }
  const { db } = await runtime();
  try {
    const result = await applyCategoryChanges(db, viewer, parsed.data);
    return data<ActionResult>({ ok: true, result });
  } catch (error) {
    if (error instanceof CategoryConflictError) {
      return data<ActionResult>(
        { ok: false, ...duplicateMessage(error.categoryName) },
        { status: 409 },
      );
    }
    log.error("category changes failed", { error, userId: viewer.id });
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
    title: "Categories · Admin",
    description: "Add and remove the categories products are filed under.",
    path: "/admin/categories",
    origin: originFrom(matches),
    noindex: true,
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  const { categories } = loaderData;
  const names = useMemo(() => categories.map((c) => c.name), [categories]);
  const counts = useMemo(
    () => new Map(categories.map((c) => [categoryKey(c.name), c.productCount])),
    [categories],
  );
  const [text, setText] = useState("");
  const [staging, setStaging] = useState<Staging>(emptyStaging);
  const [confirming, setConfirming] = useState(false);
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const id = useId();

  const suggestions = suggestCategories(names, text);
  const addEnabled = canAdd(names, staging, text) && !busy;
  const deleteEnabled = canDelete(names, staging, text) && !busy;
  const inUseDeleted = staging.toDelete.reduce((n, c) => n + (counts.get(categoryKey(c)) ?? 0), 0);

  useOutcomeToast(
    fetcher,
    (result) => {
      if (!result.ok) {
        return { title: result.title, description: result.description, variant: "destructive" };
      }
      const { added, restored, deleted } = result.result;
      return {
        title: "Categories updated",
        description: [
          added.length + restored.length > 0
            ? `Added ${plural(added.length + restored.length, "category", "categories")}.`
            : "",
          deleted.length > 0 ? `Deleted ${plural(deleted.length, "category", "categories")}.` : "",
        ]
          .filter(Boolean)
          .join(" "),
      };
    },
    (result) => {
      if (result.ok) setStaging(emptyStaging);
    },
  );

  const add = (raw: string) => {
    const r = stageAdd(names, staging, raw);
    if (r.ok) {
      setStaging(r.staging);
      setText("");
    } else if (r.reason === "duplicate") {
      toast({ ...duplicateMessage(raw), variant: "destructive" });
    } else if (r.reason === "too-long") {
      toast({
        title: "Name too long",
        description: `Use at most ${MAX_CATEGORY_NAME_LENGTH} characters.`,
        variant: "destructive",
      });
    }
  };
  const remove = (raw: string) => {
    const r = stageDelete(names, staging, raw);
    if (r.ok) {
      setStaging(r.staging);
      setText("");
    }
  };

  const confirm = () => {
    const form = new FormData();
    form.set("intent", "apply");
    for (const n of staging.toAdd) form.append("add", n);
    for (const n of staging.toDelete) form.append("delete", n);
    fetcher.submit(form, { method: "post" });
  };

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="mb-6 flex items-center gap-3">
        <Tags aria-hidden="true" className="size-8 shrink-0 text-primary" />
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Categories</h1>
          <p className="text-muted-foreground">
            Stage additions and deletions, then confirm them together.
          </p>
        </div>
      </div>

      <section aria-labelledby={`${id}-stage`} className="rounded-xl border bg-card p-4 sm:p-6">
        <h2 id={`${id}-stage`} className="sr-only">
          Stage a change
        </h2>
        <form
          className="grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add(text);
          }}
        >
          <Label htmlFor={`${id}-name`}>Category name</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={`${id}-name`}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // Enter tries the name even when Add is disabled (a disabled default button stops
                // the browser's own submit), so a duplicate is explained rather than ignored.
                if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  if (!busy) add(text);
                }
              }}
              autoComplete="off"
              maxLength={MAX_CATEGORY_NAME_LENGTH + 20}
              aria-describedby={`${id}-hint`}
              placeholder="e.g. Desk & Office"
            />
            <div className="flex gap-2">
              <Button type="submit" disabled={!addEnabled} className="flex-1 sm:flex-none">
                <Plus aria-hidden="true" />
                Add
              </Button>
              <Button
                type="button"
                variant="outline"
                disabled={!deleteEnabled}
                onClick={() => remove(text)}
                className="flex-1 sm:flex-none"
              >
                <Minus aria-hidden="true" />
                Delete
              </Button>
            </div>
          </div>
          <p id={`${id}-hint`} className="text-muted-foreground text-sm">
            Names are matched without regard to case. Nothing changes until you confirm.
          </p>
        </form>
        {suggestions.length > 0 ? (
          <div className="mt-3">
            <h3 id={`${id}-suggestions`} className="mb-2 font-medium text-sm">
              Matching categories
            </h3>
            <ul aria-labelledby={`${id}-suggestions`} className="flex flex-wrap gap-2">
              {suggestions.map((s) => (
                <li key={s}>
                  <button
                    type="button"
                    onClick={() => setText(s)}
                    className="rounded-full border px-3 py-1 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {s}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          <StagedList
            title="To add"
            empty="Nothing to add."
            names={staging.toAdd}
            actionLabel="Remove"
            icon={<Undo2 aria-hidden="true" />}
            onAction={(n) => remove(n)}
          />
          <StagedList
            title="To delete"
            empty="Nothing to delete."
            names={staging.toDelete}
            actionLabel="Keep"
            icon={<RotateCcw aria-hidden="true" />}
            onAction={(n) => setStaging(unstageDelete(staging, n))}
            note={(n) => {
              const c = counts.get(categoryKey(n)) ?? 0;
              return c > 0 ? `used by ${plural(c, "product")}` : null;
            }}
          />
        </div>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="outline"
            disabled={!hasChanges(staging) || busy}
            onClick={() => setStaging(emptyStaging)}
          >
            Clear
          </Button>
          <Button
            type="button"
            disabled={!hasChanges(staging) || busy}
            onClick={() => setConfirming(true)}
          >
            {busy ? "Saving…" : "Confirm"}
          </Button>
        </div>
      </section>

      <section aria-labelledby={`${id}-all`} className="mt-8">
        <h2 id={`${id}-all`} className="mb-3 font-semibold text-xl">
          All categories ({categories.length})
        </h2>
        {categories.length === 0 ? (
          <p className="rounded-xl border border-dashed p-6 text-center text-muted-foreground">
            No categories yet.
          </p>
        ) : (
          <ul className="divide-y rounded-xl border">
            {categories.map((c) => {
              const staged = staging.toDelete.some((n) => categoryKey(n) === categoryKey(c.name));
              return (
                <li
                  key={c.id}
                  className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
                  data-testid="category-row"
                >
                  <div className="flex min-w-0 flex-wrap items-center gap-2">
                    <span className="break-words font-medium">{c.name}</span>
                    <span className="text-muted-foreground text-sm">
                      {plural(c.productCount, "product")}
                    </span>
                    {staged ? <Badge variant="destructive">Will delete</Badge> : null}
                  </div>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={busy}
                    aria-label={`${staged ? "Keep" : "Delete"} ${c.name}`}
                    onClick={() =>
                      staged ? setStaging(unstageDelete(staging, c.name)) : remove(c.name)
                    }
                  >
                    {staged ? <RotateCcw aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
                    {staged ? "Keep" : "Delete"}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Apply these changes?</AlertDialogTitle>
            <AlertDialogDescription>
              {[
                staging.toAdd.length > 0 ? `Add ${staging.toAdd.join(", ")}.` : "",
                staging.toDelete.length > 0 ? `Delete ${staging.toDelete.join(", ")}.` : "",
              ]
                .filter(Boolean)
                .join(" ")}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {inUseDeleted > 0 ? (
            <p className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
              {plural(inUseDeleted, "product")} still {inUseDeleted === 1 ? "uses" : "use"} a
              category you are deleting. They keep their category text, but it will no longer be
              offered when editing products.
            </p>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={confirm}>Apply changes</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function StagedList({
  title,
  empty,
  names,
  actionLabel,
  icon,
  onAction,
  note,
}: {
  title: string;
  empty: string;
  names: string[];
  actionLabel: string;
  icon: React.ReactNode;
  onAction: (name: string) => void;
  note?: (name: string) => string | null;
}) {
  const id = useId();
  return (
    <div className="rounded-lg border p-3">
      <h3 id={id} className="mb-2 font-medium">
        {title} ({names.length})
      </h3>
      {names.length === 0 ? (
        <p className="text-muted-foreground text-sm">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="grid gap-1">
          {names.map((n) => {
            const extra = note?.(n);
            return (
              <li key={n} className="flex items-center justify-between gap-2">
                <span className="min-w-0 break-words text-sm">
                  {n}
                  {extra ? <span className="text-muted-foreground"> — {extra}</span> : null}
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  aria-label={`${actionLabel} ${n}`}
                  onClick={() => onAction(n)}
                >
                  {icon}
                  {actionLabel}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
