import { Heart, LifeBuoy, LogOut, MapPin, Package, UserRound } from "lucide-react";
import { useState } from "react";
import { Link, useSubmit } from "react-router";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { type FirstUseProps, focusFirstItemWhen } from "~/components/ui/menu-on-first-use";
import type { AccountMenuViewer } from "./account-menu";

/*
 * The signed-in customer's avatar menu (SPEC.md §2 Header), loaded on first use: account-menu.tsx
 * shows its button until then. Name and e-mail, then Account, My Orders, Addresses, Favourites,
 * Help & Support and Sign Out. Sign Out POSTs to /sign-out, which ends the session and redirects
 * to / with a one-shot "Signed out" message: the root loader reads it with `readFlash(request)`
 * and the layout shows it with `<FlashToast flash={…} />` (app/components/account/flash-toast.tsx).
 */

const links = [
  { to: "/account", label: "Account", icon: UserRound },
  { to: "/orders", label: "My Orders", icon: Package },
  { to: "/addresses", label: "Addresses", icon: MapPin },
  { to: "/favourites", label: "Favourites", icon: Heart },
  { to: "/faq", label: "Help & Support", icon: LifeBuoy },
] as const;

export default function AccountMenuContent({
  viewer,
  trigger,
  defaultOpen,
  openedWithKeyboard,
}: { viewer: AccountMenuViewer } & FirstUseProps) {
  const submit = useSubmit();
  const [onOpenAutoFocus] = useState(() => focusFirstItemWhen(openedWithKeyboard));
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64" {...onOpenAutoFocus}>
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
        <DropdownMenuItem
          variant="destructive"
          onSelect={() => submit(new FormData(), { method: "post", action: "/sign-out" })}
        >
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
