import { useState } from "react";
import { data } from "react-router";
import { z } from "zod";
import { MyQuotes } from "~/components/quote/my-quotes";
import { QuoteBuilder } from "~/components/quote/quote-builder";
import { PinBox } from "~/components/shipping/pin-box";
import { readForm } from "~/lib/forms.server.ts";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import {
  acceptOffer,
  addProjectToCart,
  addQuoteToCart,
  getQuoteRates,
  listMyQuotes,
  MAX_PROJECT_PARTS,
  printSchedule,
  QuoteError,
  requestReview,
} from "~/modules/quotes/quotes.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { type QuoteActionResult, quoteOptionsSchema, quoteText } from "~/rules/quote-pricing.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/custom-printing";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Custom 3D Printing – Instant Quote",
    description:
      "Upload an STL, OBJ, 3MF or PLY file and get an instant price for a custom 3D print in PLA, PETG and specialty materials.",
    path: "/custom-printing",
    origin: originFrom(matches),
  });

/** The public rates (every enabled material and the rules of the price) and the viewer's quotes. */
export async function loader({ request }: Route.LoaderArgs) {
  const rt = await runtime();
  const [rates, viewer] = await Promise.all([getQuoteRates(rt.db), getViewer(rt, request)]);
  const schedule = await printSchedule(rt.db, new Date(), { rates });
  return data(
    {
      rates: { ...rates, materials: rates.materials.filter((m) => m.enabled) },
      schedule,
      signedIn: Boolean(viewer),
      quotes: viewer ? await listMyQuotes(rt.db, viewer.id) : [],
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const quoteId = z.uuid(quoteText.notFound);
/** A project's parts, sent as one JSON field: each part's quote and options (never a price). */
const projectParts = z
  .string()
  .max(50_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "Please check the parts." });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(z.object({ quoteId, ...quoteOptionsSchema.shape }), "Please check the parts.")
      .min(1, "Add a model first.")
      .max(MAX_PROJECT_PARTS, `A project holds at most ${MAX_PROJECT_PARTS} parts.`),
  );
const actionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add-to-cart"), quoteId, ...quoteOptionsSchema.shape }),
  z.object({ intent: z.literal("add-project"), parts: projectParts }),
  z.object({
    intent: z.literal("request-review"),
    quoteId,
    note: z
      .string()
      .trim()
      .min(1, "Tell us what you need so our team can help.")
      .max(2000, "Please keep your note under 2000 characters."),
  }),
  z.object({ intent: z.literal("accept-offer"), quoteId }),
]);

/**
 * Add a priced part, or a whole project of parts, to the cart; ask staff to review a model; or
 * accept staff's offer.
 */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const form = await readForm(request);
  const parsed = actionInput.safeParse(formFields(form));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const first = Object.values(errors).find(Boolean) ?? "Please check the form.";
    return data<QuoteActionResult>(
      { ok: false, error: first, fieldErrors: errors },
      { status: 400 },
    );
  }
  const input = parsed.data;
  const { db, slicer } = await runtime();
  // Each part priced into the cart is sliced in the job queue when a slicer is installed.
  const slicing = slicer.name !== "none";
  try {
    if (input.intent === "add-to-cart") {
      const { intent: _i, quoteId: id, ...options } = input;
      const added = await addQuoteToCart(db, viewer.id, id, options, new Date(), slicing);
      return data<QuoteActionResult>({ ok: true, intent: input.intent, line: added.line });
    }
    if (input.intent === "add-project") {
      const added = await addProjectToCart(
        db,
        viewer.id,
        input.parts.map(({ quoteId: id, ...options }) => ({ quoteId: id, options })),
        new Date(),
        slicing,
      );
      return data<QuoteActionResult>({
        ok: true,
        intent: input.intent,
        lines: added.map((a) => a.line),
      });
    }
    if (input.intent === "accept-offer") {
      const added = await acceptOffer(db, viewer.id, input.quoteId);
      return data<QuoteActionResult>({ ok: true, intent: input.intent, line: added.line });
    }
    const options = quoteOptionsSchema.safeParse(formFields(form));
    await requestReview(
      db,
      viewer.id,
      input.quoteId,
      input.note,
      options.success ? options.data : null,
    );
    return data<QuoteActionResult>({ ok: true, intent: input.intent });
  } catch (error) {
    if (error instanceof QuoteError) {
      return data<QuoteActionResult>({ ok: false, error: error.message }, { status: error.status });
    }
    throw error;
  }
}

export default function CustomPrintingPage({ loaderData }: Route.ComponentProps) {
  // The project's ready-by day feeds the PIN box's delivery date.
  const [readyBy, setReadyBy] = useState<string | null>(null);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="font-bold text-3xl">Custom 3D Printing</h1>
      <p className="mt-2 max-w-3xl text-muted-foreground">
        Upload your own model and get an instant price. We print in PLA, PETG and specialty
        materials; custom orders ship in 5–10 business days, and 10 or more pieces get a volume
        discount.
      </p>
      <PinBox item={{ kind: "custom", readyBy: readyBy ?? undefined }} className="mt-4 max-w-md" />
      <QuoteBuilder
        rates={loaderData.rates}
        signedIn={loaderData.signedIn}
        schedule={loaderData.schedule}
        onReadyBy={setReadyBy}
      />
      {loaderData.signedIn ? <MyQuotes quotes={loaderData.quotes} /> : null}
    </div>
  );
}
