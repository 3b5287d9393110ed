import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False while the server renders and during hydration; true once the page runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
