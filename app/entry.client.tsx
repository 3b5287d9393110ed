import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { stopNotingTaps } from "~/lib/early-taps.ts";
import { holdDataRequestsWhileOffline } from "~/lib/offline-requests.ts";

// React Router's default entry. This script starts after the page's first contentful paint (or
// 2 s after its loader ran, if no paint came by then: decision 0032,
// app/lib/script-priority.server.ts), so hydrating doesn't hold that paint back.
// From here React handles a tap itself; those made before are replayed once hydrated (0031).
stopNotingTaps();
// Offline, the page's data and forms wait for the network instead of failing to the error page.
holdDataRequestsWhileOffline();
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
