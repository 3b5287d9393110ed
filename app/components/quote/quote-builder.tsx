import { AlertTriangle, CheckCircle2, FileUp, LoaderCircle, ShoppingCart, X } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useFetcher, useNavigate, useRevalidator } from "react-router";
import { cartActions } from "~/components/cart/cart-store";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import { ACCEPTED_EXTENSIONS, detectFormat, MAX_MODEL_BYTES } from "~/rules/model3d/index.ts";
import {
  FILE_TOO_LARGE_MESSAGE,
  invalidFileMessage,
  reasons,
  UNSUPPORTED_FILE_MESSAGE,
} from "~/rules/model3d/messages.ts";
import { MAX_PARTS_PER_FILE, partFileName, type SplitKind } from "~/rules/model3d/parts.ts";
import type { Mesh } from "~/rules/model3d/types.ts";
import { formatSize, scaleSize } from "~/rules/model3d/units.ts";
import { formatPaise } from "~/rules/money.ts";
import {
  estimatedPrintMinutes,
  type PrintSchedule,
  type PrintSpeed,
  printReadyBy,
  readyByText,
} from "~/rules/print-dates.ts";
import type { QuoteActionResult } from "~/rules/quote-pricing.ts";
import {
  bodiesText,
  defaultQuoteOptions,
  LAYER_HEIGHTS,
  priceQuote,
  projectText,
  type QuoteOptions,
  type QuoteRates,
  quoteProblemText,
  quoteText,
  tooLargeFixText,
} from "~/rules/quote-pricing.ts";
import type { StoredGeometry, StoredPrintability } from "~/rules/stored-shapes.ts";
import { printabilityHighlights } from "./highlights.ts";
import type { WorkerReply } from "./model-worker-protocol.ts";
import { keepPendingModels, takePendingModels } from "./pending-model.ts";
import { PrintabilityFacts } from "./printability-facts";
import { UnitReadings } from "./unit-readings";

// three.js (~150 KB gzipped) loads only on this page, once a model is there to show.
const ModelPreview = lazy(() => import("./model-preview"));

type Analysis = { geometry: StoredGeometry; mesh: Mesh; edges: Float32Array };
/** The browser's printability checks, which arrive after the analysis. */
type Checks = { printability: StoredPrintability; overhang: Uint8Array; thickness: Float32Array };
type Upload =
  | { state: "idle" }
  | { state: "uploading"; progress: number }
  | { state: "done"; quotes: Array<{ id: string; geometry: StoredGeometry }> }
  | { state: "failed"; error: string };
/** A dropped file: read in the worker, uploaded (signed in), cut into one or more parts. */
type Source = {
  key: number;
  file: File;
  split: SplitKind | null;
  state: "reading" | "ready" | "failed";
  error: string | null;
  upload: Upload;
  /** How many parts the file was cut into. */
  parts: number;
};
/** One part of the project: its own preview, options and price. */
type Part = {
  key: string;
  source: number;
  index: number;
  name: string;
  analysis: Analysis;
  checks: Checks | null;
  options: QuoteOptions;
  /** Sent to staff: no longer in the project. */
  requested: boolean;
};
type Job = { resolve: (r: WorkerReply) => void; onChecks: (r: WorkerReply) => void };

const fmt = (n: number, digits = 1) =>
  n.toLocaleString("en-IN", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const readFailed = "This file could not be read. Please check it and try again.";

/** The extension/size checks done before reading anything: the spec's words, or null. */
function precheck(file: File): string | null {
  const format = detectFormat(file.name);
  if (!format) return UNSUPPORTED_FILE_MESSAGE;
  if (file.size > MAX_MODEL_BYTES) return FILE_TOO_LARGE_MESSAGE;
  if (file.size === 0) return invalidFileMessage(format, reasons.empty);
  return null;
}

/** The server's quote for a part, once its file is uploaded and cut the same way. */
function serverQuote(source: Source | undefined, part: Part) {
  if (source?.upload.state !== "done" || source.upload.quotes.length !== source.parts) return null;
  return source.upload.quotes[part.index] ?? null;
}

/**
 * The instant quote for a project of one or more parts: drop models (several at once, or one
 * after another) → each is read in a Web Worker (size, volume, area, checks) and its parts shown
 * in 3D with their prices at once; for a signed-in customer each file is uploaded at the same
 * time, and the server's own measurement is what the cart and checkout use. A 3MF with several
 * objects is several parts; a file with several bodies can be split into parts. One button puts
 * every part in the cart.
 */
export function QuoteBuilder({
  rates,
  signedIn,
  schedule,
  onReadyBy,
}: {
  rates: QuoteRates;
  signedIn: boolean;
  /** The print queue as the server counted it when the page loaded (dates are its again). */
  schedule: PrintSchedule;
  /** The project's ready-by day at the chosen speed (null: no priced part yet). */
  onReadyBy?: (day: string | null) => void;
}) {
  const [sources, setSources] = useState<Source[]>([]);
  // One speed for the whole project; each part is priced (and stored) with it.
  const [speed, setSpeed] = useState<PrintSpeed>("standard");
  const [parts, setParts] = useState<Part[]>([]);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [note, setNote] = useState("");
  const [added, setAdded] = useState(false);
  const [reviewOpen, setReviewOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const worker = useRef<Worker | null>(null);
  const jobs = useRef(new Map<number, Job>());
  const xhrs = useRef(new Map<number, XMLHttpRequest>());
  const alive = useRef(new Set<number>());
  const uploads = useRef<Promise<void>>(Promise.resolve());
  const seq = useRef(0);
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const fetcher = useFetcher<QuoteActionResult>();

  useEffect(
    () => () => {
      worker.current?.terminate();
      for (const x of xhrs.current.values()) x.abort();
    },
    [],
  );

  const patchSource = useCallback((key: number, patch: Partial<Source>) => {
    setSources((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  }, []);

  const getWorker = useCallback(() => {
    if (worker.current) return worker.current;
    const w = new Worker(new URL("./model.worker.ts", import.meta.url), { type: "module" });
    w.addEventListener("message", (e: MessageEvent<WorkerReply>) => {
      const job = jobs.current.get(e.data.id);
      if (!job) return;
      if (e.data.ok && e.data.kind === "checks") job.onChecks(e.data);
      else job.resolve(e.data);
    });
    // The worker died (out of memory on a huge file): the files it held fail, and the next file
    // starts a fresh one.
    w.addEventListener("error", () => {
      w.terminate();
      if (worker.current === w) worker.current = null;
      for (const [id, job] of jobs.current) job.resolve({ id, ok: false, error: readFailed });
      jobs.current.clear();
    });
    worker.current = w;
    return w;
  }, []);

  // One upload at a time (the server reads a few at once per shop, and says "busy" beyond).
  const startUpload = useCallback(
    (key: number, f: File, split: SplitKind | null) => {
      patchSource(key, { upload: { state: "uploading", progress: 0 } });
      const send = () =>
        new Promise<void>((done) => {
          if (!alive.current.has(key)) return done();
          const req = new XMLHttpRequest();
          xhrs.current.set(key, req);
          const fail = (error: string) => {
            if (alive.current.has(key)) patchSource(key, { upload: { state: "failed", error } });
          };
          req.upload.onprogress = (e) => {
            if (alive.current.has(key) && e.lengthComputable) {
              patchSource(key, { upload: { state: "uploading", progress: e.loaded / e.total } });
            }
          };
          req.onload = () => {
            done();
            xhrs.current.delete(key);
            if (!alive.current.has(key)) return;
            let body: {
              ok?: boolean;
              error?: string;
              quotes?: Array<{ id: string; geometry: StoredGeometry }>;
            };
            try {
              body = JSON.parse(req.responseText);
            } catch {
              body = {};
            }
            if (req.status === 200 && body.ok && body.quotes?.length) {
              patchSource(key, { upload: { state: "done", quotes: body.quotes } });
              revalidator.revalidate();
            } else if (req.status === 401) {
              fail("Your session has ended. Please sign in again.");
            } else {
              fail(body.error ?? "The upload failed. Please try again.");
            }
          };
          req.onerror = () => {
            done();
            fail("The upload failed. Check your connection and try again.");
          };
          req.onabort = () => done();
          const query = `name=${encodeURIComponent(f.name)}${split ? `&split=${split}` : ""}`;
          req.open("POST", `/api/quotes/upload?${query}`);
          req.setRequestHeader("Content-Type", "application/octet-stream");
          req.send(f);
        });
      uploads.current = uploads.current.then(send);
    },
    [patchSource, revalidator],
  );

  const addFile = useCallback(
    async (f: File, split: SplitKind | null = null) => {
      const key = ++seq.current;
      setAdded(false);
      const problem = precheck(f);
      const source: Source = {
        key,
        file: f,
        split,
        state: problem ? "failed" : "reading",
        error: problem,
        upload: { state: "idle" },
        parts: 0,
      };
      setSources((all) => [...all, source]);
      if (problem) return;
      alive.current.add(key);
      if (signedIn) startUpload(key, f, split);
      const bytes = await f.arrayBuffer();
      if (!alive.current.has(key)) return;
      const w = getWorker();
      const reply = await new Promise<WorkerReply>((resolve) => {
        jobs.current.set(key, {
          resolve,
          onChecks: (c) => {
            if (!(c.ok && c.kind === "checks")) return;
            const { printability, overhang, thickness } = c;
            setParts((all) =>
              all.map((p) =>
                p.source === key && p.index === c.part
                  ? { ...p, checks: { printability, overhang, thickness } }
                  : p,
              ),
            );
          },
        });
        w.postMessage({ id: key, bytes, name: f.name, split }, [bytes]);
      });
      if (!alive.current.has(key)) return;
      if (!reply.ok || reply.kind !== "analysis") {
        jobs.current.delete(key);
        alive.current.delete(key);
        xhrs.current.get(key)?.abort();
        patchSource(key, {
          state: "failed",
          error: reply.ok ? readFailed : reply.error,
          upload: { state: "idle" },
        });
        return;
      }
      const fresh: Part[] = reply.parts.map((p, index) => ({
        key: `${key}:${index}`,
        source: key,
        index,
        name: partFileName(f.name, p.geometry.part ?? null),
        analysis: { geometry: p.geometry, mesh: p.mesh, edges: p.edges },
        checks: null,
        // Each part starts in millimetres (a 3MF's own unit is already applied); the customer
        // switches when its size suggests another.
        options: defaultQuoteOptions(rates),
        requested: false,
      }));
      patchSource(key, { state: "ready", parts: fresh.length });
      // In the order the files were dropped, whichever is read first.
      setParts((all) =>
        [...all, ...fresh].sort((a, b) => a.source - b.source || a.index - b.index),
      );
      setSelectedKey(fresh[0].key);
    },
    [signedIn, startUpload, getWorker, patchSource, rates],
  );

  const addFiles = useCallback(
    (files: File[]) => {
      for (const f of files) addFile(f);
    },
    [addFile],
  );

  /** Forgets a file and every part cut from it. */
  const dropSource = useCallback((key: number) => {
    alive.current.delete(key);
    jobs.current.delete(key);
    xhrs.current.get(key)?.abort();
    xhrs.current.delete(key);
    setSources((all) => all.filter((s) => s.key !== key));
    setParts((all) => all.filter((p) => p.source !== key));
    setAdded(false);
  }, []);

  const removePart = (part: Part) => {
    const left = parts.filter((p) => p.key !== part.key);
    if (!left.some((p) => p.source === part.source)) dropSource(part.source);
    else setParts(left);
    if (selectedKey === part.key) setSelectedKey(left[0]?.key ?? null);
    setAdded(false);
  };

  const splitSource = (key: number) => {
    const source = sources.find((s) => s.key === key);
    if (!source) return;
    dropSource(key);
    addFile(source.file, "body");
  };

  const setPartOptions = (key: string, options: QuoteOptions) => {
    // A new choice is a new price: the parts in the cart keep the old one until added again.
    setAdded(false);
    setParts((all) => all.map((p) => (p.key === key ? { ...p, options } : p)));
  };

  // Back from signing in: the files dropped before are still here.
  useEffect(() => {
    if (!signedIn || !new URLSearchParams(window.location.search).has("resume")) return;
    let live = true;
    takePendingModels().then((files) => {
      if (live) addFiles(files);
    });
    return () => {
      live = false;
    };
  }, [signedIn, addFiles]);

  // Which form was sent last, and for which part: an error answer doesn't say.
  const lastIntent = useRef<string | null>(null);
  const reviewFor = useRef<string | null>(null);
  useEffect(() => {
    if (fetcher.formData) lastIntent.current = String(fetcher.formData.get("intent") ?? "");
  }, [fetcher.formData]);

  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    if (!r.ok) {
      const title = lastIntent.current === "request-review" ? "Not sent" : "Not added";
      toast({ title, description: r.error, variant: "destructive" });
    } else if (r.intent === "request-review") {
      toast({ title: "Review requested", description: quoteText.reviewRequested });
      const key = reviewFor.current;
      setParts((all) => all.map((p) => (p.key === key ? { ...p, requested: true } : p)));
      setReviewOpen(false);
      setNote("");
    } else if (r.intent === "add-project") {
      for (const line of r.lines) cartActions.put(line);
      setAdded(true);
      toast({
        title: projectText.added(r.lines.length),
        description: r.lines.map((l) => l.name).join(", "),
      });
    }
  }, [fetcher.state, fetcher.data]);

  // Every part's price: the server's measurement once it has one; the browser's until then (they
  // agree). The browser's checks join its analysis when they finish.
  const priced = useMemo(
    () =>
      parts.map((part) => {
        const source = sources.find((s) => s.key === part.source);
        const server = serverQuote(source, part);
        const browser = part.analysis.geometry;
        const geometry =
          server?.geometry ??
          (part.checks && !browser.printability
            ? { ...browser, printability: part.checks.printability }
            : browser);
        const quote = priceQuote(geometry, { ...part.options, speed }, rates);
        // The server refused the file: the browser's price is no quote, so none is shown.
        const uploadError = source?.upload.state === "failed" ? source.upload.error : null;
        return {
          part,
          source,
          quoteId: server?.id ?? null,
          ...quote,
          geometry,
          uploadError,
          /** Shown with a price and counted in the project: uploaded (or uploading) and priceable. */
          counts: uploadError === null && quote.problems.length === 0,
        };
      }),
    [parts, sources, rates, speed],
  );
  const current = priced.find((p) => p.part.key === selectedKey) ?? priced[0] ?? null;
  const selected = current?.part ?? null;
  const material =
    rates.materials.find((m) => m.id === selected?.options.materialId) ?? rates.materials[0];
  const mmPerUnit = current?.breakdown.mmPerUnit ?? 1;
  const highlights = useMemo(
    () =>
      selected?.checks
        ? printabilityHighlights(
            selected.analysis.mesh,
            selected.checks.overhang,
            selected.checks.thickness,
            mmPerUnit,
            material.minWallMm,
          )
        : undefined,
    [selected, mmPerUnit, material.minWallMm],
  );

  const onFiles = (files: FileList | null) => {
    if (files && files.length > 0) addFiles([...files]);
  };

  const signInToOrder = async () => {
    await keepPendingModels(sources.filter((s) => s.state !== "failed").map((s) => s.file));
    navigate(`/auth?redirectTo=${encodeURIComponent("/custom-printing?resume=1")}`);
  };

  // The project: every part not sent to staff. It goes in the cart whole, once every part has
  // its quote and a price; its total counts only the parts with a price.
  const project = priced.filter((p) => !p.part.requested);
  const counted = project.filter((p) => p.counts);
  const notUploaded = project.filter((p) => p.uploadError !== null).length;
  const unpriced = project.filter((p) => p.uploadError === null && p.problems.length > 0).length;
  const projectTotal = counted.reduce((sum, p) => sum + p.breakdown.totalPaise, 0);
  // The project is printed together: its date counts every priced part's minutes.
  const projectMinutes = counted.reduce(
    (sum, p) => sum + estimatedPrintMinutes(p.breakdown.printHours, p.breakdown.quantity),
    0,
  );
  const readyBy =
    counted.length > 0
      ? {
          standard: printReadyBy(schedule, projectMinutes, "standard"),
          express: printReadyBy(schedule, projectMinutes, "express"),
        }
      : null;
  const chosenReadyBy = readyBy?.[speed] ?? null;
  useEffect(() => {
    onReadyBy?.(chosenReadyBy);
  }, [chosenReadyBy, onReadyBy]);
  const leftOut = projectText.leftOut(notUploaded, unpriced);
  const blocked = notUploaded > 0 || unpriced > 0;
  const isReading = sources.some((s) => s.state === "reading");
  const unquoted = project.filter((p) => !p.quoteId).length;
  const waiting = unquoted > 0 || isReading;
  const uploading = sources.some((s) => s.upload.state === "uploading");
  const busy = fetcher.state !== "idle";
  // Said next to the add button whenever it is greyed out (besides while adding).
  const addBlockedReason = blocked
    ? projectText.fixFirst(project.length, notUploaded)
    : isReading
      ? projectText.reading
      : waiting
        ? projectText.waitingFor(unquoted)
        : null;
  const problems = current?.problems ?? [];
  const failed = sources.filter((s) => s.state === "failed" || s.upload.state === "failed");
  const reading = sources.filter((s) => s.state === "reading");
  const selectedSource = sources.find((s) => s.key === selected?.source);
  const bodies = current?.geometry.bodyCount ?? 1;
  const canSplit =
    selectedSource !== undefined &&
    selectedSource.split === null &&
    selectedSource.parts === 1 &&
    bodies > 1 &&
    bodies <= MAX_PARTS_PER_FILE;

  const addProject = () => {
    setReviewOpen(false);
    fetcher.submit(
      {
        intent: "add-project",
        parts: JSON.stringify(
          project.map((p) => ({ quoteId: p.quoteId, ...p.part.options, speed })),
        ),
      },
      { method: "post" },
    );
  };

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_24rem]">
      <div className="grid min-w-0 gap-4">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard way in */}
        <div
          data-testid="model-drop"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            onFiles(e.dataTransfer.files);
          }}
          className={cn(
            "flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors",
            dragging ? "border-primary bg-primary/5" : "border-border",
          )}
        >
          <FileUp aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="font-medium">Drop your 3D models here</p>
          <p className="text-muted-foreground text-sm">
            STL, OBJ, 3MF or PLY · up to 100 MB and 2,000,000 triangles each · several files make a
            project
          </p>
          <input
            ref={input}
            id="model-file"
            type="file"
            multiple
            aria-label="3D model files"
            tabIndex={-1}
            accept={ACCEPTED_EXTENSIONS.join(",")}
            className="sr-only"
            onChange={(e) => {
              onFiles(e.target.files);
              e.target.value = "";
            }}
          />
          <Button type="button" variant="outline" onClick={() => input.current?.click()}>
            {parts.length > 0 ? "Add more files" : "Choose files"}
          </Button>
        </div>

        {failed.map((s) => (
          <div
            key={s.key}
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
          >
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
            <div className="grid min-w-0 flex-1 gap-0.5">
              <p className="break-all font-medium">{s.file.name}</p>
              <p data-testid="model-error">
                {s.state === "failed" ? s.error : s.upload.state === "failed" ? s.upload.error : ""}
              </p>
            </div>
            {s.state === "failed" ? (
              <button
                type="button"
                className="shrink-0 underline"
                onClick={() => dropSource(s.key)}
                aria-label={`Dismiss ${s.file.name}`}
              >
                Dismiss
              </button>
            ) : (
              <button
                type="button"
                className="shrink-0 underline"
                onClick={() => startUpload(s.key, s.file, s.split)}
                aria-label={`Upload ${s.file.name} again`}
              >
                Try again
              </button>
            )}
          </div>
        ))}

        {reading.length > 0 ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            Reading {reading.map((s) => s.file.name).join(", ")}…
          </p>
        ) : null}

        {priced.length > 0 ? (
          <PartsList
            parts={priced}
            rates={rates}
            selectedKey={current?.part.key ?? null}
            onSelect={(key) => {
              setSelectedKey(key);
              setReviewOpen(false);
            }}
            onRemove={removePart}
          />
        ) : null}

        {signedIn && uploading ? (
          <div className="grid gap-1" data-testid="upload-progress">
            {sources
              .filter((s) => s.upload.state === "uploading")
              .map((s) => (
                <div key={s.key} className="grid gap-1">
                  <div className="flex justify-between gap-2 text-muted-foreground text-sm">
                    <span className="min-w-0 truncate">Uploading {s.file.name}</span>
                    <span>
                      {s.upload.state === "uploading" ? Math.round(s.upload.progress * 100) : 0}%
                    </span>
                  </div>
                  <progress
                    className="h-2 w-full overflow-hidden rounded-full accent-primary"
                    value={s.upload.state === "uploading" ? s.upload.progress : 0}
                    max={1}
                    aria-label={`Upload progress of ${s.file.name}`}
                  />
                </div>
              ))}
          </div>
        ) : null}

        {current && selected ? (
          <>
            <Suspense
              fallback={<div className="aspect-[4/3] w-full animate-pulse rounded-xl bg-muted" />}
            >
              <ModelPreview
                key={selected.key}
                mesh={selected.analysis.mesh}
                mmPerUnit={current.breakdown.mmPerUnit}
                size={current.breakdown.size}
                problemEdges={selected.analysis.edges}
                highlights={highlights}
                className="aspect-[4/3] w-full"
              />
            </Suspense>
            {canSplit ? (
              <div
                className="flex flex-wrap items-center gap-3 rounded-lg border bg-muted/40 p-3 text-sm"
                data-testid="split-offer"
              >
                <p className="min-w-0 flex-1">{projectText.splitOffer(bodies)}</p>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => splitSource(selected.source)}
                >
                  {projectText.splitButton(bodies)}
                </Button>
              </div>
            ) : null}
            <UnitReadings
              rawSize={scaleSize(selected.analysis.geometry.size, selected.options.scalePercent)}
              fileUnit={selected.analysis.geometry.fileUnit}
              unit={selected.options.unit}
              onChoose={(unit) => setPartOptions(selected.key, { ...selected.options, unit })}
            />
            <ModelFacts geometry={selected.analysis.geometry} quote={current.breakdown} />
            <PrintabilityFacts
              printability={current.geometry.printability}
              quote={current.breakdown}
              materialName={material.name}
              scalePercent={selected.options.scalePercent}
            />
          </>
        ) : null}
      </div>

      <aside className="grid h-fit gap-4 rounded-xl border bg-card p-5" aria-label="Your quote">
        <h2 className="font-semibold text-xl">Your quote</h2>
        {selected && priced.length > 1 ? (
          <p className="break-all text-muted-foreground text-sm" data-testid="selected-part">
            Options for {selected.name}
          </p>
        ) : null}
        <OptionsForm
          rates={rates}
          options={selected?.options ?? defaultQuoteOptions(rates)}
          onChange={(o) => {
            if (selected) setPartOptions(selected.key, o);
          }}
          unitFixed={(selected?.analysis.geometry.fileUnit ?? null) !== null}
        />
        <SpeedChoice
          speed={speed}
          onChange={(s) => {
            setSpeed(s);
            setAdded(false);
          }}
          expressPercent={rates.expressPercent}
          readyBy={readyBy}
        />
        {current?.counts ? (
          <Breakdown
            quote={current.breakdown}
            materialName={material.name}
            expressPercent={rates.expressPercent}
          />
        ) : current ? (
          <p className="text-muted-foreground text-sm" data-testid="quote-unpriced">
            {current.uploadError !== null ? projectText.notUploaded : projectText.unpriced}
          </p>
        ) : (
          <p className="text-muted-foreground text-sm">
            Drop a model to see its price. Minimum {formatPaise(rates.minimumPaise)} per piece.
          </p>
        )}
        {problems.length > 0 ? (
          <ul className="grid gap-2" data-testid="quote-problems">
            {problems.map((p) => (
              <li key={p} className="flex gap-2 text-sm">
                <AlertTriangle
                  aria-hidden="true"
                  className="mt-0.5 size-4 shrink-0 text-destructive"
                />
                <span>
                  {quoteProblemText[p]}
                  {p === "too-large" && current && tooLargeFixText(current.breakdown) ? (
                    <> {tooLargeFixText(current.breakdown)}</>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}

        {project.length > 1 ? (
          <div className="grid gap-1 border-t pt-3" data-testid="project-summary">
            <p className="flex items-baseline justify-between">
              <span className="font-medium" data-testid="project-count">
                Project, {counted.length} {counted.length === 1 ? "part" : "parts"}
              </span>
              <span className="font-bold text-2xl tabular-nums" data-testid="project-total">
                {formatPaise(projectTotal)}
              </span>
            </p>
            {chosenReadyBy ? (
              <p className="text-sm" data-testid="project-ready-by">
                {readyByText(chosenReadyBy)}
              </p>
            ) : null}
            {leftOut ? (
              <p className="text-destructive text-sm" data-testid="project-left-out">
                <span className="sr-only">Not counted: </span>
                {leftOut}
              </p>
            ) : null}
          </div>
        ) : null}

        {current && !signedIn ? (
          <Button type="button" onClick={signInToOrder}>
            {projectText.signIn(priced.length)}
          </Button>
        ) : null}

        {current && signedIn && selected?.requested ? (
          <p
            role="status"
            className="flex items-start gap-2 text-sm"
            data-testid="review-requested"
          >
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            <span>
              {quoteText.reviewRequested}{" "}
              <a href="#my-quotes" className="underline">
                See your quotes
              </a>
              .
            </span>
          </p>
        ) : null}

        {current && signedIn && project.length > 0 ? (
          added ? (
            <div className="grid gap-2">
              <p className="flex items-center gap-2 text-sm">
                <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
                In your cart. The price is held for {rates.holdDays} days.
              </p>
              <Link to="/cart" className={buttonVariants()}>
                <ShoppingCart aria-hidden="true" />
                Go to cart
              </Link>
            </div>
          ) : (
            <div className="grid gap-2">
              <Button
                type="button"
                onClick={addProject}
                disabled={waiting || blocked || busy}
                aria-describedby={addBlockedReason && !busy ? "add-blocked-reason" : undefined}
              >
                {busy && lastIntent.current === "add-project"
                  ? "Adding..."
                  : uploading
                    ? "Uploading..."
                    : projectText.addButton(project.length)}
              </Button>
              {addBlockedReason && !busy ? (
                <p
                  id="add-blocked-reason"
                  role="status"
                  className="text-muted-foreground text-sm"
                  data-testid="add-blocked-reason"
                >
                  {addBlockedReason}
                </p>
              ) : null}
            </div>
          )
        ) : null}

        {current && signedIn && selected && !selected.requested ? (
          reviewOpen ? (
            <fetcher.Form
              method="post"
              className="grid gap-2"
              onSubmit={() => {
                reviewFor.current = selected.key;
              }}
            >
              <input type="hidden" name="intent" value="request-review" />
              <input type="hidden" name="quoteId" value={current.quoteId ?? ""} />
              {Object.entries(selected.options).map(([k, v]) => (
                <input key={k} type="hidden" name={k} value={String(v)} />
              ))}
              <Label htmlFor="review-note">What should our team know?</Label>
              <Textarea
                id="review-note"
                name="note"
                rows={3}
                maxLength={2000}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                placeholder="Special finish, a repair, a deadline…"
              />
              <Button
                type="submit"
                variant="outline"
                disabled={!current.quoteId || busy || !note.trim()}
              >
                Send request
              </Button>
            </fetcher.Form>
          ) : (
            <Button
              type="button"
              variant="outline"
              disabled={!current.quoteId}
              onClick={() => setReviewOpen(true)}
            >
              Request review
            </Button>
          )
        ) : null}
        <p className="text-muted-foreground text-xs">
          Prices include everything but shipping and tax. Custom orders ship in 5–10 business days.
        </p>
      </aside>
    </div>
  );
}

type PricedPart = {
  part: Part;
  quoteId: string | null;
  uploadError: string | null;
  counts: boolean;
} & ReturnType<typeof priceQuote>;

/** The project's parts, one row each: what it is, how it's made, its price; select or remove. */
function PartsList({
  parts,
  rates,
  selectedKey,
  onSelect,
  onRemove,
}: {
  parts: PricedPart[];
  rates: QuoteRates;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onRemove: (part: Part) => void;
}) {
  return (
    <section aria-label="Parts" className="grid gap-2">
      <h2 className="font-semibold text-lg">
        {parts.length === 1 ? "Your part" : `Your project: ${parts.length} parts`}
      </h2>
      <ul className="grid gap-2" data-testid="project-parts">
        {parts.map(({ part, breakdown, problems, uploadError }) => {
          const m = rates.materials.find((x) => x.id === part.options.materialId);
          const active = part.key === selectedKey;
          return (
            <li
              key={part.key}
              data-testid="project-part"
              className={cn(
                "flex min-w-0 items-center gap-2 rounded-lg border p-2 pl-3",
                active ? "border-primary bg-primary/5" : "border-border",
              )}
            >
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onSelect(part.key)}
                className="grid min-w-0 flex-1 gap-0.5 text-left text-sm"
              >
                <span className="break-all font-medium" data-testid="model-file-name">
                  {part.name}
                </span>
                <span className="text-muted-foreground" data-testid="part-options">
                  {m?.name ?? part.options.materialId}, {part.options.colour} ·{" "}
                  {part.options.quantity} {part.options.quantity === 1 ? "piece" : "pieces"}
                  {part.requested ? " · with our team" : ""}
                </span>
                {uploadError !== null && !part.requested ? (
                  <span className="text-destructive" data-testid="part-error">
                    {uploadError}
                  </span>
                ) : null}
              </button>
              <span
                className={cn(
                  "shrink-0 text-right text-sm tabular-nums",
                  (problems.length > 0 || uploadError !== null) &&
                    !part.requested &&
                    "text-destructive",
                )}
                data-testid="part-total"
              >
                {uploadError !== null && !part.requested ? (
                  <span className="inline-flex items-center gap-1">
                    <AlertTriangle aria-hidden="true" className="size-4" />
                    Not uploaded
                  </span>
                ) : problems.length > 0 && !part.requested ? (
                  <>
                    <AlertTriangle aria-hidden="true" className="inline size-4" />
                    <span className="sr-only">Needs attention</span>
                  </>
                ) : (
                  formatPaise(breakdown.totalPaise)
                )}
              </span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="shrink-0"
                aria-label={`Remove ${part.name}`}
                onClick={() => onRemove(part)}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function OptionsForm({
  rates,
  options,
  onChange,
  unitFixed,
}: {
  rates: QuoteRates;
  options: QuoteOptions;
  onChange: (o: QuoteOptions) => void;
  unitFixed: boolean;
}) {
  const material = rates.materials.find((m) => m.id === options.materialId) ?? rates.materials[0];
  const set = (patch: Partial<QuoteOptions>) => onChange({ ...options, ...patch });
  const select =
    "h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
  const clampInt = (v: string, min: number, max: number, fallback: number) => {
    const n = Math.round(Number(v));
    return Number.isFinite(n) && v !== "" ? Math.min(max, Math.max(min, n)) : fallback;
  };
  return (
    <div className="grid grid-cols-2 gap-3">
      <div className="col-span-2 grid gap-1.5">
        <Label htmlFor="q-material">Material</Label>
        <select
          id="q-material"
          className={select}
          value={options.materialId}
          onChange={(e) => {
            const m = rates.materials.find((x) => x.id === e.target.value) ?? material;
            set({
              materialId: m.id,
              colour: m.colours.includes(options.colour) ? options.colour : m.colours[0],
            });
          }}
        >
          {rates.materials.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2 grid gap-1.5">
        <Label htmlFor="q-colour">Colour</Label>
        <select
          id="q-colour"
          className={select}
          value={options.colour}
          onChange={(e) => set({ colour: e.target.value })}
        >
          {material.colours.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </div>
      <div className="col-span-2 grid gap-1.5">
        <Label htmlFor="q-layer">Layer height</Label>
        <select
          id="q-layer"
          className={select}
          value={options.layerHeight}
          onChange={(e) => set({ layerHeight: Number(e.target.value) })}
        >
          {LAYER_HEIGHTS.map((h) => (
            <option key={h} value={h}>
              {h} mm{h === 0.2 ? " (standard)" : h < 0.2 ? " (finer)" : " (faster)"}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="q-infill">Infill (%)</Label>
        <input
          id="q-infill"
          type="number"
          min={5}
          max={100}
          step={5}
          className={select}
          value={options.infillPercent}
          onChange={(e) => set({ infillPercent: clampInt(e.target.value, 5, 100, 20) })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="q-quantity">Quantity</Label>
        <input
          id="q-quantity"
          type="number"
          min={1}
          max={99}
          className={select}
          value={options.quantity}
          onChange={(e) => set({ quantity: clampInt(e.target.value, 1, 99, 1) })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="q-unit">File units</Label>
        <select
          id="q-unit"
          className={select}
          value={options.unit}
          disabled={unitFixed}
          onChange={(e) => set({ unit: e.target.value as QuoteOptions["unit"] })}
        >
          <option value="mm">Millimetres</option>
          <option value="cm">Centimetres</option>
          <option value="inch">Inches</option>
          <option value="m">Metres</option>
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="q-scale">Scale (%)</Label>
        <input
          id="q-scale"
          type="number"
          min={1}
          max={1000}
          className={select}
          value={options.scalePercent}
          onChange={(e) => set({ scalePercent: clampInt(e.target.value, 1, 1000, 100) })}
        />
      </div>
    </div>
  );
}

/** Standard or Express for the project, each with its date (once a part is priced). */
function SpeedChoice({
  speed,
  onChange,
  expressPercent,
  readyBy,
}: {
  speed: PrintSpeed;
  onChange: (s: PrintSpeed) => void;
  expressPercent: number;
  readyBy: Record<PrintSpeed, string> | null;
}) {
  const choices: Array<{ value: PrintSpeed; label: string; note: string }> = [
    { value: "standard", label: "Standard", note: "Printed in turn" },
    { value: "express", label: `Express (+${expressPercent}%)`, note: "Printed first" },
  ];
  return (
    <fieldset className="grid gap-2" data-testid="speed-choice">
      <legend className="mb-1 font-medium text-sm">Printing speed</legend>
      {choices.map((c) => (
        <label
          key={c.value}
          className={cn(
            "flex cursor-pointer items-start gap-2 rounded-md border p-2 text-sm",
            speed === c.value && "border-primary bg-muted",
          )}
        >
          <input
            type="radio"
            name="speed"
            value={c.value}
            checked={speed === c.value}
            onChange={() => onChange(c.value)}
            className="mt-1"
          />
          <span className="grid">
            <span className="font-medium">{c.label}</span>
            <span
              className="text-muted-foreground"
              data-testid={`speed-${c.value}-date`}
              data-day={readyBy?.[c.value]}
            >
              {readyBy ? readyByText(readyBy[c.value]) : c.note}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function Breakdown({
  quote,
  materialName,
  expressPercent,
}: {
  quote: ReturnType<typeof priceQuote>["breakdown"];
  materialName: string;
  expressPercent: number;
}) {
  return (
    <div className="grid gap-3" data-testid="quote-breakdown">
      <dl className="grid grid-cols-[1fr_auto] gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          {materialName}, {fmt(quote.grams)} g
        </dt>
        <dd className="tabular-nums">{formatPaise(quote.materialPaise)}</dd>
        <dt className="text-muted-foreground">Printing, about {fmt(quote.printHours)} h</dt>
        <dd className="tabular-nums">{formatPaise(quote.machinePaise)}</dd>
        <dt className="text-muted-foreground">
          Setup{quote.bodies > 1 ? `, ${quote.bodies} parts` : ""}
        </dt>
        <dd className="tabular-nums">{formatPaise(quote.setupPaise)}</dd>
        {quote.minimumApplied ? (
          <>
            <dt className="text-muted-foreground">Minimum per piece applies</dt>
            <dd />
          </>
        ) : null}
        {quote.discountPercent > 0 ? (
          <>
            <dt className="text-muted-foreground">Volume discount</dt>
            <dd className="tabular-nums">−{quote.discountPercent}%</dd>
          </>
        ) : null}
        {quote.speed === "express" ? (
          <>
            <dt className="text-muted-foreground">Express (+{expressPercent}%)</dt>
            <dd className="tabular-nums" data-testid="quote-express">
              +{formatPaise(quote.expressPaise)}
            </dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Price per piece</dt>
        <dd className="tabular-nums" data-testid="quote-unit-price">
          {formatPaise(quote.unitPricePaise)}
        </dd>
      </dl>
      <p className="flex items-baseline justify-between border-t pt-3">
        <span className="font-medium">
          Total for {quote.quantity} {quote.quantity === 1 ? "piece" : "pieces"}
        </span>
        <span className="font-bold text-2xl tabular-nums" data-testid="quote-total">
          {formatPaise(quote.totalPaise)}
        </span>
      </p>
    </div>
  );
}

function ModelFacts({
  geometry,
  quote,
}: {
  geometry: StoredGeometry;
  quote: ReturnType<typeof priceQuote>["breakdown"];
}) {
  const bodies = bodiesText(
    geometry.bodyCount ?? 1,
    (geometry.bodies ?? []).map((b) => formatSize(scaleSize(b.size, quote.mmPerUnit * 100))),
  );
  const check = (ok: boolean, good: string, bad: string) => (
    <span className={ok ? "text-success" : "text-destructive"}>{ok ? good : bad}</span>
  );
  return (
    <section className="rounded-xl border p-4" aria-label="Model check" data-testid="model-facts">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Size</dt>
          <dd data-testid="model-size">
            {fmt(quote.size.x)} × {fmt(quote.size.y)} × {fmt(quote.size.z)} mm
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Volume</dt>
          <dd data-testid="model-volume">{fmt(quote.volumeMm3 / 1000, 2)} cm³</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Surface</dt>
          <dd>{fmt(quote.areaMm2 / 100, 2)} cm²</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Triangles</dt>
          <dd>{geometry.triangles.toLocaleString("en-IN")}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Watertight</dt>
          <dd data-testid="model-watertight">
            {check(
              geometry.watertight,
              "Yes",
              `No: ${geometry.openEdges} open, ${geometry.nonManifoldEdges} non-manifold edges`,
            )}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Fits</dt>
          <dd>
            {quote.fitsPrinters.length > 0
              ? check(true, quote.fitsPrinters.join(", "), "")
              : check(false, "", "Too large for our printers")}
          </dd>
        </div>
      </dl>
      {bodies ? (
        <p className="mt-2 text-sm" data-testid="model-bodies">
          {bodies}
        </p>
      ) : null}
      {geometry.invertedNormals ? (
        <p className="mt-2 text-muted-foreground text-sm">
          The faces of this model seem to point inwards; we'll check the orientation before
          printing.
        </p>
      ) : null}
    </section>
  );
}
