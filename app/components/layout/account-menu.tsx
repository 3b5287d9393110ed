import { Button } from "~/components/ui/button";
import { menuOnFirstUse } from "~/components/ui/menu-on-first-use";

/*
 * The signed-in customer's avatar menu (SPEC.md §2 Header): its button, with the accessible name
 * "Account: {name}"; the menu itself (account-menu-content.tsx: name and e-mail, Account, My
 * Orders, Addresses, Favourites, Help & Support, Sign Out) downloads when the button is first
 * pointed at or pressed (app/components/ui/menu-on-first-use.tsx).
 *
 * Wiring (site-header.tsx): render `<AccountMenu viewer={viewer} />` in place of the avatar link
 * when `viewer` is set.
 */

export type AccountMenuViewer = { name: string; email: string };

const Menu = menuOnFirstUse(() => import("./account-menu-content").then((m) => m.default));

export function AccountMenu({ viewer }: { viewer: AccountMenuViewer }) {
  return <AccountMenuView viewer={viewer} />;
}

/**
 * The menu as the server writes it: no router hooks and no React ids (until its code arrives the
 * page shows the button alone), so the server can render it by itself for a page served from the
 * page cache (app/personal-pages.server.tsx) and match the full render's markup exactly.
 */
export function AccountMenuView({ viewer }: { viewer: AccountMenuViewer }) {
  const shown = viewer.name || viewer.email;
  return (
    <Menu
      viewer={viewer}
      trigger={
        <Button variant="ghost" size="icon" aria-label={`Account: ${shown}`}>
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
          >
            {shown.slice(0, 1).toUpperCase()}
          </span>
        </Button>
      }
    />
  );
}
