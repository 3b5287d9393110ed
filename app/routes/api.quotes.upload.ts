import { log } from "~/lib/log.server.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { readBodyLimited } from "~/lib/read-body.server.ts";
import { createQuoteFromUpload } from "~/modules/quotes/quotes.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { MAX_MODEL_BYTES } from "~/rules/model3d/index.ts";
import { FILE_TOO_LARGE_MESSAGE } from "~/rules/model3d/messages.ts";
import { ModelError } from "~/rules/model3d/types.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.quotes.upload";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * Uploads this process reads at once. Each holds its body (up to 100 MB) in memory, and reading
 * a model takes the CPU for a moment: beyond this, 503 and "try again".
 */
const MAX_IN_FLIGHT = 3;
let inFlight = 0;

/**
 * POST /api/quotes/upload?name=part.stl with the file's bytes as the body: the signed-in
 * customer's model for a custom-print quote. The server reads and measures it itself (the
 * browser's analysis is only a preview) and keeps it privately. A 3MF with several objects is
 * several parts, and `&split=body` cuts a model into its separate bodies: one quote per part.
 * Answers the stored quotes (`quotes`, in part order; `quote` is the first), or 400
 * with the parser's message, 413 over 100 MB, 429 when uploading too fast, 503 when busy.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return new Response(null, { status: 405, headers: { allow: "POST" } });
  }
  const viewer = await requireUser(request);
  const wait = await rateLimited((await runtime()).db, request, "model-upload");
  if (wait !== null) {
    return Response.json(
      { ok: false, error: RATE_LIMITED_MESSAGE },
      { status: 429, headers: { ...noStore, "Retry-After": String(wait) } },
    );
  }
  if (inFlight >= MAX_IN_FLIGHT) {
    return Response.json(
      { ok: false, error: "We're busy reading other models. Please try again in a minute." },
      { status: 503, headers: { ...noStore, "Retry-After": "30" } },
    );
  }
  inFlight += 1;
  try {
    return await receive(request, viewer.id);
  } finally {
    inFlight -= 1;
  }
}

async function receive(request: Request, userId: string): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const name = query.get("name") ?? "";
  const split = query.get("split") === "body" ? "body" : null;
  const bytes = await readBodyLimited(request, MAX_MODEL_BYTES);
  if (bytes === null) {
    return Response.json(
      { ok: false, error: FILE_TOO_LARGE_MESSAGE },
      { status: 413, headers: noStore },
    );
  }
  const rt = await runtime();
  try {
    const quotes = await createQuoteFromUpload(
      { db: rt.db, files: rt.privateFiles },
      userId,
      name,
      bytes,
      split,
    );
    log.info("model uploaded", {
      quoteId: quotes[0].id,
      parts: quotes.length,
      bytes: bytes.byteLength,
      triangles: quotes.reduce((n, q) => n + q.geometry.triangles, 0),
    });
    return Response.json({ ok: true, quote: quotes[0], quotes }, { headers: noStore });
  } catch (error) {
    if (error instanceof ModelError) {
      return Response.json({ ok: false, error: error.message }, { status: 400, headers: noStore });
    }
    throw error;
  }
}
