import { Monitor, Moon, Sun } from "lucide-react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { menuOnFirstUse } from "~/components/ui/menu-on-first-use";
import type { Theme } from "~/rules/theme.ts";

const icons = { light: Sun, dark: Moon, system: Monitor } as const;
const labels = { light: "Light", dark: "Dark", system: "System" } as const;

/** The theme the page should show now: a pending choice wins over the stored one. */
export function useOptimisticTheme(stored: Theme): Theme {
  const fetcher = useFetcher({ key: "theme" });
  const pending = fetcher.formData?.get("theme");
  return pending === "light" || pending === "dark" || pending === "system" ? pending : stored;
}

// The menu's code (Radix's menu) downloads when the button is first pointed at or pressed.
const ThemeMenu = menuOnFirstUse(() => import("./theme-menu").then((m) => m.default));

export function ThemeSwitcher({ theme }: { theme: Theme }) {
  const Icon = icons[theme];
  return (
    <ThemeMenu
      theme={theme}
      trigger={
        <Button variant="ghost" size="icon" aria-label={`Theme: ${labels[theme]}`}>
          <Icon aria-hidden="true" />
        </Button>
      }
    />
  );
}
