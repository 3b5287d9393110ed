import { Menu, ShoppingCart, User, X } from "lucide-react";
import { type KeyboardEvent, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useCartCount } from "~/components/cart/cart-store";
import { Button, buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { Theme } from "~/rules/theme.ts";
import { AccountMenu } from "./account-menu";
import { SearchBox } from "./search-box";
import { ThemeSwitcher } from "./theme-switcher";

const nav = [
  { to: "/custom-printing", label: "Custom Printing" },
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact Us" },
];

/**
 * The account area of a visitor who isn't signed in. The server finds this exact markup in a
 * cached page to put a signed-in customer's menu in its place (app/lib/personal-page.server.ts).
 */
export function SignInLink() {
  return (
    <Link
      to="/auth"
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-label="Sign in"
    >
      <User aria-hidden="true" />
    </Link>
  );
}

export type HeaderViewer = { name: string; email: string } | null;

export function SiteHeader({
  viewer,
  cartCount,
  theme,
}: {
  viewer: HeaderViewer;
  cartCount: number;
  theme: Theme;
}) {
  const { pathname } = useLocation();
  const count = useCartCount(cartCount);
  // The mobile menu belongs to the page it was opened on: it closes when the path changes.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenuOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || event.defaultPrevented || !menuOpen) return;
    setOpenOn(null);
    menuButton.current?.focus();
  };

  const navLinkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground",
      isActive && "text-primary",
    );

  return (
    <header className="sticky top-0 z-30 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md font-bold text-lg tracking-tight"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>LayerKart</span>
        </Link>
        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
          {nav.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <SearchBox className="mx-4 hidden max-w-sm flex-1 md:block" />
        <div className="ml-auto flex items-center gap-1">
          <ThemeSwitcher theme={theme} />
          <Link
            to="/cart"
            className={cn(buttonVariants({ variant: "ghost", size: "icon" }), "relative")}
            aria-label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
          >
            <ShoppingCart aria-hidden="true" />
            {count > 0 ? (
              <span
                data-testid="cart-count"
                className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] font-semibold leading-5 text-primary-foreground"
              >
                {count > 99 ? "99+" : count}
              </span>
            ) : null}
          </Link>
          {viewer ? <AccountMenu viewer={viewer} /> : <SignInLink />}
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            className="md:hidden"
            onKeyDown={closeMenuOnEscape}
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setOpenOn(menuOpen ? null : pathname)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </Button>
        </div>
      </div>
      {menuOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t px-4 py-2 md:hidden"
          onKeyDown={closeMenuOnEscape}
        >
          <SearchBox className="my-2" label="Site search (menu)" />
          <ul className="flex flex-col">
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={(s) => cn(navLinkClass(s), "block py-3")}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
