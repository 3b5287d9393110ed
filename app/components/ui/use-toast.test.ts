import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  dismissToast,
  getToastState,
  reducer,
  resetToasts,
  subscribeToToasts,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  type ToasterToast,
  type ToastState,
  toast,
} from "./use-toast";

function makeToast(id: string, extra: Partial<ToasterToast> = {}): ToasterToast {
  return { id, open: true, title: `Toast ${id}`, ...extra };
}

describe("toast reducer", () => {
  const empty: ToastState = { toasts: [] };

  it("keeps at most one toast", () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer(empty, { type: "ADD_TOAST", toast: makeToast("1") });
    state = reducer(state, { type: "ADD_TOAST", toast: makeToast("2") });
    state = reducer(state, { type: "ADD_TOAST", toast: makeToast("3") });
    expect(state.toasts).toHaveLength(1);
  });

  it("replaces the previous toast with the new one", () => {
    const first = reducer(empty, { type: "ADD_TOAST", toast: makeToast("1") });
    const second = reducer(first, { type: "ADD_TOAST", toast: makeToast("2") });
    expect(second.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("updates a toast by id and leaves others untouched", () => {
    const state = { toasts: [makeToast("1", { description: "old" })] };
    const next = reducer(state, {
      type: "UPDATE_TOAST",
      toast: { id: "1", description: "new", variant: "destructive" },
    });
    expect(next.toasts[0]).toMatchObject({
      id: "1",
      title: "Toast 1",
      description: "new",
      variant: "destructive",
      open: true,
    });
    // The input state is not mutated.
    expect(state.toasts[0].description).toBe("old");
  });

  it("ignores an update for an unknown id", () => {
    const state = { toasts: [makeToast("1")] };
    expect(reducer(state, { type: "UPDATE_TOAST", toast: { id: "9", title: "x" } })).toBe(state);
  });

  it("marks a dismissed toast as closed without removing it", () => {
    const state = { toasts: [makeToast("1")] };
    const next = reducer(state, { type: "DISMISS_TOAST", toastId: "1" });
    expect(next.toasts).toHaveLength(1);
    expect(next.toasts[0].open).toBe(false);
    expect(state.toasts[0].open).toBe(true);
  });

  it("dismisses every toast when no id is given", () => {
    const state = { toasts: [makeToast("1"), makeToast("2")] };
    const next = reducer(state, { type: "DISMISS_TOAST" });
    expect(next.toasts.every((t) => !t.open)).toBe(true);
  });

  it("removes a toast by id, or all toasts without an id", () => {
    const state = { toasts: [makeToast("1"), makeToast("2")] };
    expect(reducer(state, { type: "REMOVE_TOAST", toastId: "1" }).toasts.map((t) => t.id)).toEqual([
      "2",
    ]);
    expect(reducer(state, { type: "REMOVE_TOAST" }).toasts).toEqual([]);
  });
});

describe("toast store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetToasts();
  });

  afterEach(() => {
    resetToasts();
    vi.useRealTimers();
  });

  it("shows a new toast open, with a fresh id", () => {
    const a = toast({ title: "Added to cart" });
    expect(getToastState().toasts).toEqual([{ id: a.id, open: true, title: "Added to cart" }]);
    const b = toast({ title: "Again" });
    expect(b.id).not.toBe(a.id);
  });

  it("shows only the latest toast (limit 1, replace)", () => {
    toast({ title: "First" });
    const second = toast({ title: "Second" });
    const { toasts } = getToastState();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ id: second.id, title: "Second", open: true });
  });

  it("updates a toast through its handle", () => {
    const t = toast({ title: "Uploading model…" });
    t.update({ title: "Upload complete", description: "cube.stl" });
    expect(getToastState().toasts[0]).toMatchObject({
      id: t.id,
      title: "Upload complete",
      description: "cube.stl",
      open: true,
    });
  });

  it("does not let an old handle change the toast that replaced it", () => {
    const old = toast({ title: "Old" });
    toast({ title: "New" });
    old.update({ title: "Changed" });
    expect(getToastState().toasts[0].title).toBe("New");
  });

  it("keeps the variant: default, destructive, or unset", () => {
    toast({ title: "Saved", variant: "default" });
    expect(getToastState().toasts[0].variant).toBe("default");
    toast({ title: "Payment failed", variant: "destructive" });
    expect(getToastState().toasts[0].variant).toBe("destructive");
    toast({ title: "Plain" });
    expect(getToastState().toasts[0].variant).toBeUndefined();
  });

  it("keeps a custom duration", () => {
    toast({ title: "Slow", duration: 10_000 });
    expect(getToastState().toasts[0].duration).toBe(10_000);
  });

  it("marks a dismissed toast closed and removes it 1,000,000 ms later", () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    const t = toast({ title: "Bye" });
    t.dismiss();
    expect(getToastState().toasts).toEqual([{ id: t.id, open: false, title: "Bye" }]);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(getToastState().toasts).toHaveLength(1);

    vi.advanceTimersByTime(1);
    expect(getToastState().toasts).toEqual([]);
  });

  it("dismissToast() without an id closes the current toast", () => {
    toast({ title: "One" });
    dismissToast();
    expect(getToastState().toasts[0].open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(getToastState().toasts).toEqual([]);
  });

  it("dismissing twice does not restart the removal timer", () => {
    const t = toast({ title: "Twice" });
    t.dismiss();
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    t.dismiss();
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    expect(getToastState().toasts).toEqual([]);
  });

  it("a pending removal never deletes the toast that replaced the dismissed one", () => {
    const first = toast({ title: "First" });
    first.dismiss();
    const second = toast({ title: "Second" });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(getToastState().toasts).toEqual([{ id: second.id, open: true, title: "Second" }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("notifies subscribers on every change and stops after unsubscribe", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToToasts(listener);
    const t = toast({ title: "Hi" });
    t.update({ description: "there" });
    t.dismiss();
    expect(listener).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(listener).toHaveBeenCalledTimes(4);
    unsubscribe();
    toast({ title: "Unheard" });
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it("keeps the same state object until something changes", () => {
    toast({ title: "Stable" });
    expect(getToastState()).toBe(getToastState());
  });
});
