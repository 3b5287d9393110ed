import { Download, FileUp, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import { data, useFetcher } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { formFile, readLimitedForm } from "~/lib/content-uploads.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  type ImportPreview,
  type ImportResult,
  planImport,
  previewOf,
  runImport,
} from "~/modules/catalog/import.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { MAX_IMPORT_BYTES, MAX_IMPORT_LABEL } from "~/rules/product-csv.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/import";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { maxLabel: MAX_IMPORT_LABEL };
}

type ActionResult =
  | { ok: true; kind: "preview"; preview: ImportPreview }
  | { ok: true; kind: "imported"; result: ImportResult }
  | { ok: false; title: string; description: string };

const failed = (status: number, description: string, title = "Import failed") =>
  data<ActionResult>({ ok: false, title, description }, { status });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readLimitedForm(request, MAX_IMPORT_BYTES, {
    title: "Import failed",
    description: `The file must be ${MAX_IMPORT_LABEL} or smaller.`,
  });
  const intent = form.get("intent");
  if (intent !== "preview" && intent !== "import") return failed(400, "Unknown request.");
  const file = formFile(form, "file");
  if (!file) return failed(400, "Please choose a JSON or CSV file.");
  if (file.size > MAX_IMPORT_BYTES) {
    return failed(413, `The file must be ${MAX_IMPORT_LABEL} or smaller.`);
  }
  const text = await file.text();
  const { db, storage } = await runtime();
  try {
    if (intent === "preview") {
      const plan = await planImport(db, storage, text);
      if (!plan.ok) return failed(400, plan.error);
      return data<ActionResult>({ ok: true, kind: "preview", preview: previewOf(plan) });
    }
    const result = await runImport(db, storage, viewer, { text, filename: file.name });
    if (!result.ok) return failed(400, result.error);
    const { ok: _, ...imported } = result;
    return data<ActionResult>({ ok: true, kind: "imported", result: imported });
  } catch (error) {
    log.error("product import failed", { error, userId: viewer.id, intent });
    return failed(500, "No products were imported. Please try again.", "Failed to save");
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Import Products · Admin",
    description: "Import products from the old shop's JSON export or a CSV file.",
    path: "/admin/import",
    origin: originFrom(matches),
    noindex: true,
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const SHOWN = 200;

export default function AdminImport({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [fileKey, setFileKey] = useState<string | null>(null);
  const [shown, setShown] = useState<{ key: string; preview: ImportPreview } | null>(null);
  const [done, setDone] = useState<ImportResult | null>(null);
  const submittedKey = useRef<string | null>(null);

  useOutcomeToast(
    fetcher,
    (result) => {
      if (!result.ok) {
        return { title: result.title, description: result.description, variant: "destructive" };
      }
      if (result.kind === "preview") return null;
      const r = result.result;
      return {
        title: "Import complete",
        description: `${plural(r.toCreate, "new product")}, ${plural(r.toUpdate, "product")} updated${
          r.failures.length ? `, ${plural(r.failures.length, "failure")}` : ""
        }.`,
      };
    },
    (result) => {
      if (!result.ok) return;
      if (result.kind === "preview") {
        setShown({ key: submittedKey.current ?? "", preview: result.preview });
        setDone(null);
        return;
      }
      setDone(result.result);
      setShown(null);
      setFileKey(null);
      formRef.current?.reset();
    },
  );

  const preview = shown && shown.key === fileKey ? shown.preview : null;
  const importable = preview ? preview.toCreate + preview.toUpdate : 0;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-3">
          <FileUp aria-hidden="true" className="size-8 shrink-0 text-primary" />
          <div>
            <h1 className="font-bold text-3xl tracking-tight">Import Products</h1>
            <p className="text-muted-foreground">
              From the old shop's JSON export or a CSV file. Preview first, then import.
            </p>
          </div>
        </div>
        <a
          href="/admin/products.csv"
          download
          className={buttonVariants({ variant: "outline", className: "max-sm:w-full" })}
        >
          <Download aria-hidden="true" />
          Export products CSV
        </a>
      </div>

      <fetcher.Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6"
        onSubmit={() => {
          submittedKey.current = fileKey;
        }}
      >
        <Label htmlFor={`${id}-file`}>JSON or CSV file</Label>
        <input
          id={`${id}-file`}
          name="file"
          type="file"
          required
          accept=".json,.csv,application/json,text/csv"
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const f = e.target.files?.[0];
            setFileKey(f ? `${f.name}:${f.size}:${f.lastModified}` : null);
            setDone(null);
            if (f && f.size > MAX_IMPORT_BYTES) {
              toast({
                title: "Import failed",
                description: `The file must be ${loaderData.maxLabel} or smaller.`,
                variant: "destructive",
              });
              e.target.value = "";
              setFileKey(null);
            }
          }}
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-2 file:font-medium file:text-sm"
        />
        <div id={`${id}-hint`} className="grid gap-1 text-muted-foreground text-sm">
          <p>Up to {loaderData.maxLabel}.</p>
          <p>
            <strong className="font-medium text-foreground">JSON:</strong> an array of product
            documents (each with an <code>id</code>) or an object of id → document. Importing the
            same documents again updates those products instead of adding copies.
          </p>
          <p>
            <strong className="font-medium text-foreground">CSV:</strong> a header row with name,
            price, category, subcategory, description, discount, inStock, stockCount, isActive,
            badge, features (separated by |) and image URL. Rows with an id column (as in the
            export) update that product; others update the product with the same name, or add a new
            one.
          </p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button
            type="submit"
            name="intent"
            value="preview"
            variant="outline"
            disabled={busy || !fileKey}
          >
            {busy && fetcher.formData?.get("intent") === "preview" ? "Checking…" : "Preview"}
          </Button>
          <Button
            type="submit"
            name="intent"
            value="import"
            disabled={busy || !preview || importable === 0}
          >
            <Upload aria-hidden="true" />
            {busy && fetcher.formData?.get("intent") === "import"
              ? "Importing…"
              : `Import${preview ? ` ${plural(importable, "product")}` : ""}`}
          </Button>
        </div>
      </fetcher.Form>

      <div aria-live="polite">
        {preview ? <PreviewReport title="Preview" report={preview} /> : null}
        {done ? (
          <PreviewReport
            title="Imported"
            report={done}
            extra={
              done.newCategories.length > 0
                ? `New categories: ${done.newCategories.join(", ")}.`
                : undefined
            }
          />
        ) : null}
      </div>
    </div>
  );
}

function PreviewReport({
  title,
  report,
  extra,
}: {
  title: string;
  report: ImportPreview;
  extra?: string;
}) {
  const id = useId();
  const total = report.toCreate + report.toUpdate;
  return (
    <section aria-labelledby={id} className="mt-6 grid gap-4 rounded-xl border p-4 sm:p-6">
      <h2 id={id} className="font-semibold text-xl">
        {title}: {report.format === "json" ? "JSON" : "CSV"}
      </h2>
      <p data-testid="import-summary">
        {title === "Preview" ? "To import" : "Imported"}: {plural(total, "product")} (
        {report.toCreate} new, {report.toUpdate} updated).{" "}
        {report.failures.length > 0
          ? `${plural(report.failures.length, "failure")} listed below ${
              title === "Preview" ? "will be skipped" : "were skipped"
            }.`
          : "No failures."}
      </p>
      {extra ? <p>{extra}</p> : null}
      {report.failures.length > 0 ? (
        <div>
          <h3 className="mb-2 font-medium">Failures</h3>
          <div className="max-h-80 overflow-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <thead className="bg-muted/60">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Row / id
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Reason
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y" data-testid="import-failures">
                {report.failures.slice(0, SHOWN).map((f) => (
                  <tr key={`${f.where}-${f.reason}`}>
                    <td className="break-all px-3 py-2 align-top font-mono text-xs">{f.where}</td>
                    <td className="px-3 py-2">{f.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {report.failures.length > SHOWN ? (
            <p className="mt-1 text-muted-foreground text-sm">
              and {report.failures.length - SHOWN} more.
            </p>
          ) : null}
        </div>
      ) : null}
      {report.notes.length > 0 ? (
        <div>
          <h3 className="mb-2 font-medium">Notes</h3>
          <ul className="list-disc pl-5 text-sm">
            {report.notes.slice(0, SHOWN).map((n) => (
              <li key={`${n.where}-${n.note}`}>
                <span className="font-mono text-xs">{n.where}</span>: {n.note}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.products.length > 0 ? (
        <details>
          <summary className="cursor-pointer font-medium">
            Products ({report.products.length})
          </summary>
          <ul className="mt-2 grid gap-1 text-sm">
            {report.products.slice(0, SHOWN).map((p) => (
              <li key={p.where} className="flex flex-wrap gap-2">
                <span className="font-mono text-muted-foreground text-xs">{p.where}</span>
                <span className="break-words">{p.name}</span>
                <span className="text-muted-foreground">
                  ({p.action === "create" ? "new" : "update"})
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
