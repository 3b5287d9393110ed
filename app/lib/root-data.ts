import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

type RootData = NonNullable<ReturnType<typeof useRouteLoaderData<typeof loader>>>;

/** What a page from the page cache carries for the signed-in customer it was sent to. */
export const PERSONAL_SCRIPT_ID = "lk-personal";

export type PersonalData = Pick<RootData, "viewer" | "favouriteIds">;

/**
 * The page's personal data, bound to the root loader's data it came with: read once, when the
 * page hydrates. undefined until then; null when the page carries none (every rendered page).
 */
let pinned: { root: RootData; merged: RootData } | null | undefined;

function personalFromPage(): PersonalData | null {
  const element = document.getElementById(PERSONAL_SCRIPT_ID);
  if (!element?.textContent) return null;
  try {
    const parsed = JSON.parse(element.textContent) as Partial<PersonalData>;
    const viewer = parsed.viewer;
    if (
      !viewer ||
      typeof viewer.name !== "string" ||
      typeof viewer.email !== "string" ||
      !Array.isArray(parsed.favouriteIds) ||
      !parsed.favouriteIds.every((id) => typeof id === "string")
    ) {
      return null;
    }
    return {
      viewer: { name: viewer.name, email: viewer.email },
      favouriteIds: parsed.favouriteIds,
    };
  } catch {
    return null;
  }
}

/**
 * The root loader's data (viewer, theme, origin, favourites), available to every component.
 *
 * A signed-in customer's page may come from the page cache (decision 0026): its loader data is the
 * visitor's (nobody signed in), and the server adds the customer's name and favourites to the page
 * as JSON (`#lk-personal`) beside the markup it personalised. Until the root loader runs again
 * (a sign-in or out, an action, a navigation that revalidates it) that data stands in for the
 * loader's viewer and favourites, so the page hydrates as it was sent; afterwards the loader's own
 * data wins.
 */
export function useRootData(): RootData | undefined {
  const root = useRouteLoaderData<typeof loader>("root");
  if (pinned === undefined && root && typeof document !== "undefined") {
    const personal = root.viewer === null ? personalFromPage() : null;
    pinned = personal ? { root, merged: { ...root, ...personal } } : null;
  }
  return pinned && root === pinned.root ? pinned.merged : root;
}
