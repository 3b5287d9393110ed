import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
} from "react-router";
import { FlashToast } from "~/components/account/flash-toast";
import { cartCountFromCookie } from "~/components/cart/cart-store";
import { CartSync } from "~/components/cart/cart-sync";
import { NotFoundPage, UnexpectedErrorPage } from "~/components/layout/error-pages";
import { OfflineNotice } from "~/components/layout/offline-notice";
import { RouteChangeOverlay } from "~/components/layout/route-change-overlay";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { useOptimisticTheme } from "~/components/layout/theme-switcher";
import { IconSprite } from "~/components/ui/icon-sprite";
import { Toaster } from "~/components/ui/toaster";
import { replayEarlyTaps } from "~/lib/early-taps.ts";
import { privateWhenSignedIn, refuseControlCharacters } from "~/lib/edge.server.ts";
import { useNonce } from "~/lib/nonce.ts";
import { useRootData } from "~/lib/root-data";
import { readFlash } from "~/modules/accounts/flash.server.ts";
import { getViewerWith } from "~/modules/accounts/viewer.server.ts";
import {
  favouriteIdsFrom,
  favouriteIdsOf,
  listFavouriteIds,
} from "~/modules/favourites/favourites.server.ts";
import { themeFromCookieHeader } from "~/rules/theme.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/root";
import "./app.css";

/** Every request: hostile characters refused, signed-in answers kept out of caches (issue 20). */
export const middleware: Route.MiddlewareFunction[] = [
  privateWhenSignedIn,
  refuseControlCharacters,
];

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const rt = await runtime();
  // The session, the name and the favourites in one query on the common path (decision 0025).
  const found = await getViewerWith(rt, request, { favouriteIds: favouriteIdsOf });
  const viewer = found.viewer;
  const favouriteIds = viewer
    ? (favouriteIdsFrom(found.extras?.favouriteIds) ?? (await listFavouriteIds(rt.db, viewer.id)))
    : [];
  const cookie = request.headers.get("cookie");
  const { flash, headers: flashHeaders } = readFlash(request);
  const headers = new Headers({ "Cache-Control": "private, no-cache" });
  for (const setCookie of flashHeaders.getSetCookie()) headers.append("Set-Cookie", setCookie);
  return data(
    {
      origin: rt.env.publicUrl,
      theme: themeFromCookieHeader(cookie),
      viewer: viewer ? { name: viewer.name, email: viewer.email } : null,
      favouriteIds,
      // The browser keeps the cart; it mirrors the item count in a cookie for the first paint.
      cartCount: cartCountFromCookie(cookie),
      flash,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  // The root loader's data, or on a page served from the page cache the customer's own (decision
  // 0026).
  const loaderData = useRootData();
  const nonce = useNonce();
  const theme = useOptimisticTheme(loaderData?.theme ?? "system");
  // Hydrated: what was tapped or typed before now is made again (decisions 0031, 0032).
  useEffect(() => {
    const replay = setTimeout(replayEarlyTaps, 0);
    return () => clearTimeout(replay);
  }, []);
  return (
    <html lang="en-IN" className={theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "system" ? "light dark" : theme} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col antialiased">
        <IconSprite />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:shadow"
        >
          Skip to content
        </a>
        <SiteHeader
          viewer={loaderData?.viewer ?? null}
          cartCount={loaderData?.cartCount ?? 0}
          theme={theme}
        />
        <main id="main" className="flex-1">
          {children}
        </main>
        <SiteFooter />
        <RouteChangeOverlay />
        <OfflineNotice />
        <Toaster />
        {/* No root data (an error page): who is signed in is unknown, not "nobody". */}
        <CartSync account={loaderData ? (loaderData.viewer?.email ?? null) : undefined} />
        <FlashToast flash={loaderData?.flash ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function meta() {
  return [
    { title: "LayerKart — 3D printed décor, gadgets and miniatures" },
    {
      name: "description",
      content:
        "LayerKart prints décor, gadgets and character miniatures in India, and turns your own 3D models into real parts.",
    },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    return (
      <UnexpectedErrorPage
        status={error.status}
        // A refusal's own words ("Some of the text contains characters…") over "Bad Request".
        detail={(typeof error.data === "string" && error.data) || error.statusText}
      />
    );
  }
  const message = error instanceof Error ? error.message : "Something went wrong.";
  // In production the server does not send internal error details to the browser.
  return <UnexpectedErrorPage detail={message || "Something went wrong."} />;
}
