import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { userProfiles } from "~/db/schema.ts";
import type { Auth } from "./auth.server.ts";

/** What finding the viewer needs: the auth instance and the database. */
export type ViewerDeps = { auth: Auth; db: Database };

/** Who is making the request, as the shop sees them; null when signed out. */
export type Viewer = { id: string; name: string; email: string; isAdmin: boolean };

// The root loader, guards and page loaders all ask who the viewer is; within one request the
// answer is looked up once (each loader of a request receives the same Request object).
const viewerOfRequest = new WeakMap<Request, Promise<Viewer | null>>();

export function getViewer(rt: ViewerDeps, request: Request): Promise<Viewer | null> {
  let viewer = viewerOfRequest.get(request);
  if (!viewer) {
    viewer = lookUpViewer(rt, request);
    viewerOfRequest.set(request, viewer);
    // A failed look-up is not remembered.
    viewer.catch(() => viewerOfRequest.delete(request));
  }
  return viewer;
}

async function lookUpViewer(rt: ViewerDeps, request: Request): Promise<Viewer | null> {
  const session = await rt.auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const [profile] = await rt.db
    .select({ displayName: userProfiles.displayName, isAdmin: userProfiles.isAdmin })
    .from(userProfiles)
    .where(eq(userProfiles.userId, session.user.id));
  return {
    id: session.user.id,
    name: profile?.displayName ?? session.user.name,
    email: session.user.email,
    isAdmin: profile?.isAdmin ?? false,
  };
}
