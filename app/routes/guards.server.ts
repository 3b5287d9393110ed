import { guardsFor } from "~/modules/accounts/guards.server.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { runtime } from "~/runtime.server.ts";

/*
 * The guards of app/modules/accounts/guards.server.ts bound to the process runtime, for route
 * modules (modules never import the composition root).
 */

/** The signed-in customer, or a redirect to sign in (pages) / 401 (API). */
export async function requireUser(request: Request): Promise<Viewer> {
  return guardsFor(await runtime()).requireUser(request);
}

/** A signed-in admin, or: sign in first; non-admins go to / (pages) or get 403 (actions, API). */
export async function requireAdmin(request: Request): Promise<Viewer> {
  return guardsFor(await runtime()).requireAdmin(request);
}
