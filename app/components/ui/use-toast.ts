import type * as React from "react";
import { useSyncExternalStore } from "react";
import type { ToastActionElement } from "./toast";

/*
 * Notification store. Rules from the product spec:
 * - at most TOAST_LIMIT (1) toast is shown; a new toast replaces the previous one;
 * - a toast can be updated by id;
 * - a dismissed toast is marked closed (open=false) and removed TOAST_REMOVE_DELAY ms later.
 *
 * The state lives in this module (one store per browser tab) and is read through
 * useSyncExternalStore. On the server the snapshot is always empty, so nothing leaks
 * between requests into rendered HTML.
 */

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = "default" | "destructive";

export type ToastOptions = {
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes on its own; defaults to the Toaster's 5000 ms. */
  duration?: number;
  action?: ToastActionElement;
};

export type ToasterToast = ToastOptions & {
  id: string;
  open: boolean;
};

export type ToastState = {
  toasts: ToasterToast[];
};

export type ToastStoreAction =
  | { type: "ADD_TOAST"; toast: ToasterToast }
  | { type: "UPDATE_TOAST"; toast: Partial<ToasterToast> & { id: string } }
  | { type: "DISMISS_TOAST"; toastId?: string }
  | { type: "REMOVE_TOAST"; toastId?: string };

/** Pure state transition; leaving out `toastId` on dismiss/remove applies to every toast. */
export function reducer(state: ToastState, action: ToastStoreAction): ToastState {
  switch (action.type) {
    case "ADD_TOAST":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE_TOAST": {
      const { id, ...changes } = action.toast;
      if (!state.toasts.some((t) => t.id === id)) return state;
      return {
        toasts: state.toasts.map((t) => (t.id === id ? { ...t, ...changes, id } : t)),
      };
    }
    case "DISMISS_TOAST": {
      const { toastId } = action;
      return {
        toasts: state.toasts.map((t) =>
          toastId === undefined || t.id === toastId ? { ...t, open: false } : t,
        ),
      };
    }
    case "REMOVE_TOAST": {
      const { toastId } = action;
      if (toastId === undefined) return { toasts: [] };
      return { toasts: state.toasts.filter((t) => t.id !== toastId) };
    }
  }
}

const EMPTY_STATE: ToastState = { toasts: [] };

let state: ToastState = EMPTY_STATE;
let idCounter = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    dispatch({ type: "REMOVE_TOAST", toastId: id });
  }, TOAST_REMOVE_DELAY);
  removalTimers.set(id, timer);
}

function dispatch(action: ToastStoreAction) {
  state = reducer(state, action);

  if (action.type === "DISMISS_TOAST") {
    for (const t of state.toasts) {
      if (!t.open) scheduleRemoval(t.id);
    }
  }
  // Drop timers for toasts that are already gone (replaced) or were reopened by an update.
  for (const [id, timer] of removalTimers) {
    const t = state.toasts.find((x) => x.id === id);
    if (!t || t.open) {
      clearTimeout(timer);
      removalTimers.delete(id);
    }
  }

  for (const listener of listeners) listener();
}

function nextId() {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return String(idCounter);
}

/** Closes one toast, or every toast when no id is given. */
export function dismissToast(toastId?: string) {
  dispatch({ type: "DISMISS_TOAST", toastId });
}

export type ToastHandle = {
  id: string;
  dismiss: () => void;
  update: (changes: ToastOptions) => void;
};

/** Shows a notification, replacing whatever toast is currently shown. */
export function toast(options: ToastOptions): ToastHandle {
  const id = nextId();
  dispatch({ type: "ADD_TOAST", toast: { ...options, id, open: true } });
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (changes) => dispatch({ type: "UPDATE_TOAST", toast: { ...changes, id } }),
  };
}

/** Current store state (same object until something changes). */
export function getToastState(): ToastState {
  return state;
}

/** Calls `listener` after every change; returns the unsubscribe function. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Clears all toasts and pending timers immediately (used by tests, and e.g. on sign-out). */
export function resetToasts() {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  state = EMPTY_STATE;
  for (const listener of listeners) listener();
}

function getServerState(): ToastState {
  return EMPTY_STATE;
}

export function useToast() {
  const current = useSyncExternalStore(subscribeToToasts, getToastState, getServerState);
  return { toasts: current.toasts, toast, dismiss: dismissToast };
}
