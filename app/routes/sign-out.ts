import { redirect } from "react-router";
import { flashCookie } from "~/modules/accounts/flash.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/sign-out";

/** Signing out changes state, so it is a POST only; a visit to /sign-out just goes home. */
export function loader() {
  return redirect("/");
}

/**
 * Ends the session (Better Auth deletes it and clears its cookies) and goes home with a one-shot
 * "Signed out" message that the root layout shows as a toast. Works with and without JavaScript.
 */
export async function action({ request }: Route.ActionArgs) {
  const { auth, env } = await runtime();
  const headers = new Headers();
  try {
    const res = await auth.api.signOut({ headers: request.headers, asResponse: true });
    for (const cookie of res.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch {
    // No session to end: the visitor is signed out either way.
  }
  headers.append("Set-Cookie", flashCookie("signed-out", env.publicUrl.startsWith("https://")));
  return redirect("/", { headers });
}
