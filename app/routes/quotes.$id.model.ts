import { z } from "zod";
import { modelFileFor } from "~/modules/quotes/quotes.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/quotes.$id.model";

/**
 * GET /quotes/:id/model: the uploaded model file, for the customer who uploaded it and for staff.
 * Anyone else gets the same 404 as an unknown id.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  if (!z.uuid().safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  const rt = await runtime();
  const file = await modelFileFor({ db: rt.db, files: rt.privateFiles }, viewer, params.id);
  if (!file) throw new Response("Not found", { status: 404 });
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
