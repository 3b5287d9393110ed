import { requireAdmin } from "~/modules/accounts/guards.server.ts";
import type { Route } from "./+types/orders-csv";

/** Placeholder while the endpoint is built. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return new Response("Not built yet", { status: 501 });
}
