import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.auth.$";

/** Better Auth's endpoints (sign-up, sign-in, verification, password reset, session). */
export async function loader({ request }: Route.LoaderArgs) {
  const { auth } = await runtime();
  return auth.handler(request);
}

export async function action({ request }: Route.ActionArgs) {
  const { auth } = await runtime();
  return auth.handler(request);
}
