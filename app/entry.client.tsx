import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { stopNotingTaps } from "~/lib/early-taps.ts";

/**
 * React Router's default entry, except that hydration waits for the server's HTML to be painted
 * (decision 0010, amended 2026-11-27). On a fast connection the scripts can arrive before the
 * browser's first paint, and hydrating 24 product cards then holds that paint back behind a
 * long task. A frame callback runs just before the next paint and a message posted from it runs
 * just after, so a page already painted waits one frame at most. A hidden page paints no frames:
 * it hydrates at once, and a timer makes sure no page waits longer than that.
 */
function afterNextPaint(run: () => void) {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    run();
  };
  if (document.visibilityState !== "visible") return once();
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = once;
    channel.port2.postMessage(null);
  });
  setTimeout(once, 200);
}

afterNextPaint(() => {
  // From here React handles a tap itself; those made before are replayed once hydrated (0031).
  stopNotingTaps();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
