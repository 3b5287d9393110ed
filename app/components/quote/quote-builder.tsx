import { AlertTriangle, CheckCircle2, FileUp, LoaderCircle, ShoppingCart } from "lucide-react";
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
import type { Mesh } from "~/rules/model3d/types.ts";
import { formatSize, scaleSize } from "~/rules/model3d/units.ts";
import { formatPaise } from "~/rules/money.ts";
import type { QuoteActionResult } from "~/rules/quote-pricing.ts";
import {
  bodiesText,
  defaultQuoteOptions,
  formatBytes,
  LAYER_HEIGHTS,
  priceQuote,
  type QuoteOptions,
  type QuoteRates,
  quoteProblemText,
  quoteText,
  tooLargeFixText,
} from "~/rules/quote-pricing.ts";
import type { StoredGeometry, StoredPrintability } from "~/rules/stored-shapes.ts";
import { printabilityHighlights } from "./highlights.ts";
import type { WorkerReply } from "./model-worker-protocol.ts";
import { keepPendingModel, takePendingModel } from "./pending-model.ts";
import { PrintabilityFacts } from "./printability-facts";
import { UnitReadings } from "./unit-readings";

// three.js (~150 KB gzipped) loads only on this page, once a model is there to show.
const ModelPreview = lazy(() => import("./model-preview"));

type Analysis = { geometry: StoredGeometry; mesh: Mesh; edges: Float32Array; ms: number };
/** The browser's printability checks, which arrive after the analysis. */
type Checks = { printability: StoredPrintability; overhang: Uint8Array; thickness: Float32Array };
type Upload =
  | { state: "idle" }
  | { state: "uploading"; progress: number }
  | { state: "done"; quoteId: string; geometry: StoredGeometry }
  | { state: "failed"; error: string };

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

/**
 * The instant quote: drop a model → it is read in a Web Worker (size, volume, area, checks) and
 * shown in 3D with its price at once; for a signed-in customer it is uploaded at the same time,
 * and the server's own measurement is what the cart and checkout use.
 */
export function QuoteBuilder({ rates, signedIn }: { rates: QuoteRates; signedIn: boolean }) {
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [checks, setChecks] = useState<Checks | null>(null);
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const [options, setOptions] = useState<QuoteOptions>(() => defaultQuoteOptions(rates));
  const [dragging, setDragging] = useState(false);
  const [note, setNote] = useState("");
  const [added, setAdded] = useState(false);
  // Once staff have the model, this page can't add it to the cart or ask again (the server
  // refuses both): it says so instead of offering buttons that fail.
  const [requested, setRequested] = useState(false);
  const [reviewOpen, setReviewOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const worker = useRef<Worker | null>(null);
  const xhr = useRef<XMLHttpRequest | null>(null);
  const job = useRef(0);
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const fetcher = useFetcher<QuoteActionResult>();

  useEffect(
    () => () => {
      worker.current?.terminate();
      xhr.current?.abort();
    },
    [],
  );

  const startUpload = useCallback(
    (f: File, mine: number) => {
      xhr.current?.abort();
      const req = new XMLHttpRequest();
      xhr.current = req;
      setUpload({ state: "uploading", progress: 0 });
      req.upload.onprogress = (e) => {
        if (mine === job.current && e.lengthComputable) {
          setUpload({ state: "uploading", progress: e.loaded / e.total });
        }
      };
      req.onload = () => {
        if (mine !== job.current) return;
        let body: {
          ok?: boolean;
          error?: string;
          quote?: { id: string; geometry: StoredGeometry };
        };
        try {
          body = JSON.parse(req.responseText);
        } catch {
          body = {};
        }
        if (req.status === 200 && body.ok && body.quote) {
          setUpload({ state: "done", quoteId: body.quote.id, geometry: body.quote.geometry });
          revalidator.revalidate();
        } else if (req.status === 401) {
          setUpload({ state: "failed", error: "Your session has ended. Please sign in again." });
        } else {
          setUpload({
            state: "failed",
            error: body.error ?? "The upload failed. Please try again.",
          });
        }
      };
      req.onerror = () => {
        if (mine === job.current) {
          setUpload({
            state: "failed",
            error: "The upload failed. Check your connection and try again.",
          });
        }
      };
      req.open("POST", `/api/quotes/upload?name=${encodeURIComponent(f.name)}`);
      req.setRequestHeader("Content-Type", "application/octet-stream");
      req.send(f);
    },
    [revalidator],
  );

  const accept = useCallback(
    async (f: File) => {
      const mine = ++job.current;
      xhr.current?.abort();
      setFile(f);
      setAnalysis(null);
      setChecks(null);
      setAdded(false);
      setRequested(false);
      setReviewOpen(false);
      setUpload({ state: "idle" });
      const problem = precheck(f);
      if (problem) {
        setReading(false);
        setError(problem);
        return;
      }
      setError(null);
      setReading(true);
      if (signedIn) startUpload(f, mine);
      const bytes = await f.arrayBuffer();
      if (mine !== job.current) return;
      worker.current ??= new Worker(new URL("./model.worker.ts", import.meta.url), {
        type: "module",
      });
      const w = worker.current;
      const reply = await new Promise<WorkerReply>((resolve) => {
        const done = (r: WorkerReply) => {
          w.removeEventListener("message", onMessage);
          w.removeEventListener("error", onError);
          resolve(r);
        };
        const onMessage = (e: MessageEvent<WorkerReply>) => {
          if (e.data.id !== mine) return;
          if (e.data.ok && e.data.kind === "checks") return;
          done(e.data);
          // The printability checks follow on their own.
          const onChecks = (c: MessageEvent<WorkerReply>) => {
            if (c.data.id !== mine || !(c.data.ok && c.data.kind === "checks")) return;
            w.removeEventListener("message", onChecks);
            if (mine !== job.current) return;
            const { printability, overhang, thickness } = c.data;
            setChecks({ printability, overhang, thickness });
          };
          if (e.data.ok) w.addEventListener("message", onChecks);
        };
        // The worker died (out of memory on a huge file): start a fresh one next time.
        const onError = () => {
          w.terminate();
          if (worker.current === w) worker.current = null;
          done({ id: mine, ok: false, error: readFailed });
        };
        w.addEventListener("message", onMessage);
        w.addEventListener("error", onError);
        w.postMessage({ id: mine, bytes, name: f.name }, [bytes]);
      });
      if (mine !== job.current) return;
      setReading(false);
      if (!reply.ok || reply.kind !== "analysis") {
        setError(reply.ok ? readFailed : reply.error);
        xhr.current?.abort();
        setUpload({ state: "idle" });
        return;
      }
      setAnalysis({ geometry: reply.geometry, mesh: reply.mesh, edges: reply.edges, ms: reply.ms });
      // Each file starts in millimetres (a 3MF's own unit is already applied); the customer
      // switches when its size suggests another.
      setOptions((o) => ({ ...o, unit: "mm" }));
    },
    [signedIn, startUpload],
  );

  // Back from signing in: the file dropped before is still here.
  useEffect(() => {
    if (!signedIn || !new URLSearchParams(window.location.search).has("resume")) return;
    let live = true;
    takePendingModel().then((f) => {
      if (live && f) accept(f);
    });
    return () => {
      live = false;
    };
  }, [signedIn, accept]);

  // Which form was sent last: an error answer doesn't say.
  const lastIntent = useRef<string | null>(null);
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
      setRequested(true);
      setReviewOpen(false);
      setNote("");
    } else if (r.intent === "add-to-cart" || r.intent === "accept-offer") {
      cartActions.put(r.line);
      setAdded(true);
      toast({ title: quoteText.added, description: r.line.name });
    }
  }, [fetcher.state, fetcher.data]);

  // The server's measurement once it has one; the browser's until then (they agree).
  // The browser's checks join its analysis when they finish (the server's geometry has its own).
  const browserGeometry = useMemo(
    () =>
      analysis && checks && !analysis.geometry.printability
        ? { ...analysis.geometry, printability: checks.printability }
        : analysis?.geometry,
    [analysis, checks],
  );
  const geometry = upload.state === "done" ? upload.geometry : browserGeometry;
  const quote = useMemo(
    () => (geometry ? priceQuote(geometry, options, rates) : null),
    [geometry, options, rates],
  );
  const material = rates.materials.find((m) => m.id === options.materialId) ?? rates.materials[0];
  const fileUnit = analysis?.geometry.fileUnit ?? null;
  const mmPerUnit = quote?.breakdown.mmPerUnit ?? 1;
  const highlights = useMemo(
    () =>
      analysis && checks
        ? printabilityHighlights(
            analysis.mesh,
            checks.overhang,
            checks.thickness,
            mmPerUnit,
            material.minWallMm,
          )
        : undefined,
    [analysis, checks, mmPerUnit, material.minWallMm],
  );

  const onFiles = (files: FileList | null) => {
    const f = files?.[0];
    if (f) accept(f);
  };

  const signInToOrder = async () => {
    if (file) await keepPendingModel(file);
    navigate(`/auth?redirectTo=${encodeURIComponent("/custom-printing?resume=1")}`);
  };

  const quoteId = upload.state === "done" ? upload.quoteId : null;
  const busy = fetcher.state !== "idle";
  const problems = quote?.problems ?? [];

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
          <p className="font-medium">Drop your 3D model here</p>
          <p className="text-muted-foreground text-sm">
            STL, OBJ, 3MF or PLY · up to 100 MB and 2,000,000 triangles
          </p>
          <input
            ref={input}
            id="model-file"
            type="file"
            aria-label="3D model file"
            tabIndex={-1}
            accept={ACCEPTED_EXTENSIONS.join(",")}
            className="sr-only"
            onChange={(e) => {
              onFiles(e.target.files);
              e.target.value = "";
            }}
          />
          <Button type="button" variant="outline" onClick={() => input.current?.click()}>
            Choose a file
          </Button>
          {file ? (
            <p className="break-all text-sm" data-testid="model-file-name">
              {file.name} · {formatBytes(file.size)}
            </p>
          ) : null}
        </div>

        {error ? (
          <p
            role="alert"
            data-testid="model-error"
            className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
          >
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
            {error}
          </p>
        ) : null}

        {reading ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            Reading your model…
          </p>
        ) : null}

        {signedIn && upload.state === "uploading" ? (
          <div className="grid gap-1" data-testid="upload-progress">
            <div className="flex justify-between text-muted-foreground text-sm">
              <span>Uploading</span>
              <span>{Math.round(upload.progress * 100)}%</span>
            </div>
            <progress
              className="h-2 w-full overflow-hidden rounded-full accent-primary"
              value={upload.progress}
              max={1}
              aria-label="Upload progress"
            />
          </div>
        ) : null}
        {upload.state === "failed" ? (
          <p role="alert" className="text-destructive text-sm">
            {upload.error}
          </p>
        ) : null}

        {analysis && quote ? (
          <>
            <Suspense
              fallback={<div className="aspect-[4/3] w-full animate-pulse rounded-xl bg-muted" />}
            >
              <ModelPreview
                mesh={analysis.mesh}
                mmPerUnit={quote.breakdown.mmPerUnit}
                size={quote.breakdown.size}
                problemEdges={analysis.edges}
                highlights={highlights}
                className="aspect-[4/3] w-full"
              />
            </Suspense>
            <UnitReadings
              rawSize={scaleSize(analysis.geometry.size, options.scalePercent)}
              fileUnit={analysis.geometry.fileUnit}
              unit={options.unit}
              onChoose={(unit) => {
                setAdded(false);
                setOptions((o) => ({ ...o, unit }));
              }}
            />
            <ModelFacts geometry={analysis.geometry} quote={quote.breakdown} />
            <PrintabilityFacts
              printability={geometry?.printability}
              quote={quote.breakdown}
              materialName={material.name}
              scalePercent={options.scalePercent}
            />
          </>
        ) : null}
      </div>

      <aside className="grid h-fit gap-4 rounded-xl border bg-card p-5" aria-label="Your quote">
        <h2 className="font-semibold text-xl">Your quote</h2>
        <OptionsForm
          rates={rates}
          options={options}
          onChange={(o) => {
            // A new choice is a new price: the part in the cart keeps the old one until added again.
            setAdded(false);
            setOptions(o);
          }}
          unitFixed={fileUnit !== null}
        />
        {quote ? (
          <Breakdown quote={quote.breakdown} materialName={material.name} />
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
                  {p === "too-large" && quote && tooLargeFixText(quote.breakdown) ? (
                    <> {tooLargeFixText(quote.breakdown)}</>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}

        {quote && !signedIn ? (
          <Button type="button" onClick={signInToOrder}>
            {quoteText.signInToOrder}
          </Button>
        ) : null}

        {quote && signedIn && requested ? (
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

        {quote && signedIn && !requested ? (
          <>
            {added ? (
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
              <fetcher.Form method="post" className="grid gap-2">
                <input type="hidden" name="intent" value="add-to-cart" />
                <input type="hidden" name="quoteId" value={quoteId ?? ""} />
                {Object.entries(options).map(([k, v]) => (
                  <input key={k} type="hidden" name={k} value={String(v)} />
                ))}
                <Button type="submit" disabled={!quoteId || problems.length > 0 || busy}>
                  {busy && fetcher.formData?.get("intent") === "add-to-cart"
                    ? "Adding..."
                    : upload.state === "uploading"
                      ? "Uploading..."
                      : "Add to cart"}
                </Button>
              </fetcher.Form>
            )}
            {reviewOpen ? (
              <fetcher.Form method="post" className="grid gap-2">
                <input type="hidden" name="intent" value="request-review" />
                <input type="hidden" name="quoteId" value={quoteId ?? ""} />
                {Object.entries(options).map(([k, v]) => (
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
                <Button type="submit" variant="outline" disabled={!quoteId || busy || !note.trim()}>
                  Send request
                </Button>
              </fetcher.Form>
            ) : (
              <Button
                type="button"
                variant="outline"
                disabled={!quoteId}
                onClick={() => setReviewOpen(true)}
              >
                Request review
              </Button>
            )}
          </>
        ) : null}
        <p className="text-muted-foreground text-xs">
          Prices include everything but shipping and tax. Custom orders ship in 5–10 business days.
        </p>
      </aside>
    </div>
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

function Breakdown({
  quote,
  materialName,
}: {
  quote: ReturnType<typeof priceQuote>["breakdown"];
  materialName: string;
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
