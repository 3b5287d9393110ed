import { useCallback, useEffect, useRef, useState } from "react";
import { endUnread } from "~/lib/end-unread.ts";

/** How a load ended; superseded: a later load was started before it answered. */
export type LoadOutcome = "loaded" | "failed" | "superseded";

/**
 * Reads JSON from one of the shop's resource routes, as `useFetcher().load` does, except that a
 * request that fails (offline, a dropped connection, an error answer) keeps the last answer and
 * sets `failed` instead of throwing to the error boundary, which would replace the whole page and
 * what the customer was doing on it. Only the latest request's answer is kept; when it failed,
 * it is asked again once the browser is back online or the tab is shown again.
 */
export function useJsonLoad<T>() {
  const [data, setData] = useState<T | undefined>(undefined);
  const [state, setState] = useState<"idle" | "loading">("idle");
  const [failed, setFailed] = useState(false);
  /** The address of the last load that ended (answered or failed). */
  const [settledUrl, setSettledUrl] = useState<string | null>(null);
  const latest = useRef<AbortController | null>(null);
  const lastUrl = useRef<string | null>(null);
  const lastFailed = useRef(false);

  const load = useCallback(async (url: string): Promise<LoadOutcome> => {
    latest.current?.abort();
    const request = new AbortController();
    latest.current = request;
    lastUrl.current = url;
    setState("loading");
    let body: T | undefined;
    try {
      const res = await fetch(url, {
        headers: { accept: "application/json" },
        signal: request.signal,
      });
      if (res.ok) body = (await res.json()) as T;
      else endUnread(res);
    } catch {
      // Left undefined: failed.
    }
    if (latest.current !== request) return "superseded";
    latest.current = null;
    if (body !== undefined) setData(body);
    lastFailed.current = body === undefined;
    setFailed(body === undefined);
    setSettledUrl(url);
    setState("idle");
    return body === undefined ? "failed" : "loaded";
  }, []);

  useEffect(() => {
    const again = () => {
      if (document.visibilityState !== "visible" || !lastFailed.current || latest.current) return;
      if (lastUrl.current) void load(lastUrl.current);
    };
    window.addEventListener("online", again);
    document.addEventListener("visibilitychange", again);
    return () => {
      window.removeEventListener("online", again);
      document.removeEventListener("visibilitychange", again);
      latest.current?.abort();
    };
  }, [load]);
  return { data, state, failed, settledUrl, load };
}
