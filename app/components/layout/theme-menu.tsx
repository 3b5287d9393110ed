import { Monitor, Moon, Sun } from "lucide-react";
import { useState } from "react";
import { useFetcher, useLocation } from "react-router";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { type FirstUseProps, focusFirstItemWhen } from "~/components/ui/menu-on-first-use";
import { THEMES, type Theme } from "~/rules/theme.ts";

const icons = { light: Sun, dark: Moon, system: Monitor } as const;
const labels = { light: "Light", dark: "Dark", system: "System" } as const;

/** The theme menu itself, loaded on first use (theme-switcher.tsx shows its button until then). */
export default function ThemeMenu({
  theme,
  trigger,
  defaultOpen,
  openedWithKeyboard,
}: { theme: Theme } & FirstUseProps) {
  const fetcher = useFetcher({ key: "theme" });
  const location = useLocation();
  const [onOpenAutoFocus] = useState(() => focusFirstItemWhen(openedWithKeyboard));
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" {...onOpenAutoFocus}>
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
