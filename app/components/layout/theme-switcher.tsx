import { Monitor, Moon, Sun } from "lucide-react";
import { useFetcher, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { THEMES, type Theme } from "~/rules/theme.ts";

const icons = { light: Sun, dark: Moon, system: Monitor } as const;
const labels = { light: "Light", dark: "Dark", system: "System" } as const;

/** The theme the page should show now: a pending choice wins over the stored one. */
export function useOptimisticTheme(stored: Theme): Theme {
  const fetcher = useFetcher({ key: "theme" });
  const pending = fetcher.formData?.get("theme");
  return pending === "light" || pending === "dark" || pending === "system" ? pending : stored;
}

export function ThemeSwitcher({ theme }: { theme: Theme }) {
  const fetcher = useFetcher({ key: "theme" });
  const location = useLocation();
  const Icon = icons[theme];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Theme: ${labels[theme]}`}>
          <Icon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        {THEMES.map((t) => {
          const ItemIcon = icons[t];
          return (
            <DropdownMenuItem
              key={t}
              aria-checked={t === theme}
              role="menuitemradio"
              onSelect={() =>
                fetcher.submit(
                  { theme: t, redirectTo: location.pathname + location.search },
                  { method: "post", action: "/theme" },
                )
              }
            >
              <ItemIcon aria-hidden="true" />
              {labels[t]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
