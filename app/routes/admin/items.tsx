import { requireAdmin } from "~/modules/accounts/guards.server.ts";
import type { Route } from "./+types/items";

/** Placeholder while the page is built. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function Placeholder() {
  return <p className="mx-auto max-w-7xl px-4 py-10">This admin page is being built.</p>;
}
