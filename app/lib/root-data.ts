import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

/** The root loader's data (viewer, theme, origin, favourites), available to every component. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}
