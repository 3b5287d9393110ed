import { Heart, LifeBuoy, LogOut, MapPin, Package, UserRound } from "lucide-react";
import { Link, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";

/*
 * The signed-in customer's avatar menu (SPEC.md §2 Header): name and e-mail, then Account, My
 * Orders, Addresses, Favourites, Help & Support and Sign Out.
 *
 * Wiring (site-header.tsx): render `<AccountMenu viewer={viewer} />` in place of the avatar link
 * when `viewer` is set. The trigger keeps the old link's accessible name, "Account: {name}".
 * Sign Out POSTs to /sign-out, which ends the session and redirects to / with a one-shot
 * "Signed out" message: the root loader reads it with `readFlash(request)` and the layout shows
 * it with `<FlashToast flash={…} />` (app/components/account/flash-toast.tsx).
 */

export type AccountMenuViewer = { name: string; email: string };

const links = [
  { to: "/account", label: "Account", icon: UserRound },
  { to: "/orders", label: "My Orders", icon: Package },
  { to: "/addresses", label: "Addresses", icon: MapPin },
  { to: "/favourites", label: "Favourites", icon: Heart },
  { to: "/faq", label: "Help & Support", icon: LifeBuoy },
] as const;

export function AccountMenu({ viewer }: { viewer: AccountMenuViewer }) {
  const submit = useSubmit();
  return (
    <AccountMenuView
      viewer={viewer}
      onSignOut={() => submit(new FormData(), { method: "post", action: "/sign-out" })}
    />
  );
}

/**
 * The trigger's id is fixed rather than React's useId (there is one account menu per page): its
 * server markup then doesn't depend on where the menu sits in the tree, so the server can render
 * it alone for a page served from the page cache (app/lib/personal-page.server.ts) and match the
 * full render's markup exactly.
 */
const TRIGGER_ID = "account-menu-trigger";

/** The menu itself, without the router's data hooks: the server renders it alone too. */
export function AccountMenuView({
  viewer,
  onSignOut,
}: {
  viewer: AccountMenuViewer;
  onSignOut: () => void;
}) {
  const shown = viewer.name || viewer.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild id={TRIGGER_ID}>
        <Button variant="ghost" size="icon" aria-label={`Account: ${shown}`}>
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
          >
            {shown.slice(0, 1).toUpperCase()}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64" aria-labelledby={TRIGGER_ID}>
        <DropdownMenuLabel className="flex flex-col gap-0.5 font-normal">
          <span className="truncate font-semibold" data-testid="account-menu-name">
            {viewer.name}
          </span>
          <span className="truncate text-muted-foreground text-xs" data-testid="account-menu-email">
            {viewer.email}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          {links.map(({ to, label, icon: Icon }) => (
            <DropdownMenuItem key={to} asChild>
              <Link to={to}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </DropdownMenuItem>
          ))}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
