import {
  type ComponentType,
  cloneElement,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  useEffect,
  useState,
} from "react";

/** What a menu loaded on first use is told about the press that loaded it. */
export type FirstUseProps = {
  /** The button the menu opens from, as the page showed it before the menu's code arrived. */
  trigger: ReactElement;
  /** Loaded by a press on its trigger: the menu mounts open. */
  defaultOpen?: boolean;
  /**
   * Opened with the keyboard (or a screen reader's click): its first item takes the focus, as
   * Radix does when a key opens a menu it already had.
   */
  openedWithKeyboard?: boolean;
};

type TriggerProps = {
  type?: string;
  "aria-haspopup"?: string;
  "aria-expanded"?: boolean;
  "data-state"?: string;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: () => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
};

/**
 * A dropdown menu whose code downloads on first use (DESIGN.md decision 10): Radix's menu with
 * its positioning, focus trap and scroll lock is about 20 KB gzipped that a first visit to any
 * page would otherwise download for two header buttons. Until then the page shows the trigger
 * as a plain button with the same look and the same accessible name and state; pointing at it or
 * focusing it starts the download, and pressing it (pointer, Enter, Space, ArrowDown, or a
 * screen reader's click) opens the menu as soon as its code has arrived. Once loaded, the real
 * menu takes the button's place for good.
 *
 * `load` resolves to the menu component; it renders `trigger` inside its `DropdownMenuTrigger`.
 */
export function menuOnFirstUse<P extends object>(
  load: () => Promise<ComponentType<P & FirstUseProps>>,
) {
  let Loaded: ComponentType<P & FirstUseProps> | undefined;
  let loading: Promise<unknown> | undefined;
  const fetchMenu = () => {
    loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        // Offline for a moment: the next press tries again.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const prefetch = () => void fetchMenu().catch(() => undefined);

  return function MenuOnFirstUse(props: P & { trigger: ReactElement<TriggerProps> }) {
    const [ready, setReady] = useState(false);
    const [opened, setOpened] = useState<"pointer" | "keyboard" | null>(null);
    // A header mounted after the code arrived (a sign-in, an error page) shows the real menu.
    useEffect(() => {
      if (Loaded) setReady(true);
    }, []);

    if (ready && Loaded) {
      return (
        <Loaded
          {...props}
          defaultOpen={opened !== null}
          openedWithKeyboard={opened === "keyboard"}
        />
      );
    }

    const open = (how: "pointer" | "keyboard") => {
      setOpened(how);
      fetchMenu().then(
        () => setReady(true),
        () => {
          setOpened(null);
          // A tab older than the shop's last update asks for files that are gone: load the page
          // again (offline, the press does nothing and the next one tries again).
          if (navigator.onLine) window.location.reload();
        },
      );
    };
    return cloneElement(props.trigger, {
      type: "button",
      "aria-haspopup": "menu",
      "aria-expanded": false,
      "data-state": "closed",
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onPointerDown: (event) => {
        // As Radix's trigger: the primary button without Ctrl opens it, and the trigger doesn't
        // take the focus from the menu about to open.
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        open("pointer");
      },
      onKeyDown: (event) => {
        if (event.key !== "Enter" && event.key !== " " && event.key !== "ArrowDown") return;
        event.preventDefault();
        open("keyboard");
      },
      onClick: (event) => {
        // A click with no pointer press before it: a screen reader's or a script's.
        if (event.detail === 0 && opened === null) open("keyboard");
      },
    });
  };
}

/**
 * Props for the loaded menu's `DropdownMenuContent`: when the menu was opened from the keyboard
 * before its code arrived, its first item takes the focus instead of the menu itself. Radix's
 * menu content passes `onOpenAutoFocus` on to its focus scope, though its types leave it out of
 * the dropdown's props; hence props to spread rather than a typed prop.
 */
export function focusFirstItemWhen(openedWithKeyboard: boolean | undefined): object {
  let pending = openedWithKeyboard === true;
  const onOpenAutoFocus = (event: Event) => {
    if (!pending) return;
    pending = false;
    const first = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(
      '[role^="menuitem"]:not([data-disabled])',
    );
    if (!first) return;
    event.preventDefault();
    first.focus();
  };
  return { onOpenAutoFocus };
}
