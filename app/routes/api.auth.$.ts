import { isBrowserAuthEndpoint } from "~/modules/accounts/auth.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.auth.$";

/*
 * Better Auth's endpoints behind the shop's own screens (sign-up, sign-in, verification, password
 * reset, sign-out); every other one answers 404 here (BROWSER_AUTH_ENDPOINTS, issue 20).
 */

async function handle(request: Request) {
  if (!isBrowserAuthEndpoint(request.method, new URL(request.url).pathname)) {
    return Response.json({ message: "Not found" }, { status: 404 });
  }
  const { auth } = await runtime();
  return auth.handler(request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
