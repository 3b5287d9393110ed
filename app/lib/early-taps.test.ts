import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { EARLY_TAPS_SCRIPT, replayEarlyTaps, stopNotingTaps } from "./early-taps.ts";

type FakeButton = {
  type: string;
  form: object | null;
  disabled: boolean;
  isConnected: boolean;
  clicks: number;
  closest: (selector: string) => FakeButton | null;
  click: () => void;
};

function button(overrides: Partial<FakeButton> = {}): FakeButton {
  const b: FakeButton = {
    type: "button",
    form: null,
    disabled: false,
    isConnected: true,
    clicks: 0,
    closest: () => b,
    click: () => {
      b.clicks += 1;
    },
    ...overrides,
  };
  return b;
}

/** The script run in a page of its own; `tap` is a click as the browser dispatches it. */
function page() {
  let listener: ((e: unknown) => void) | null = null;
  let giveUp = () => {};
  const window: Record<string, unknown> = {};
  runInNewContext(EARLY_TAPS_SCRIPT, {
    window,
    setTimeout: (f: () => void) => {
      giveUp = f;
    },
    document: {
      addEventListener: (_: string, f: (e: unknown) => void) => {
        listener = f;
      },
      removeEventListener: () => {
        listener = null;
      },
    },
  });
  (globalThis as { window?: unknown }).window = window;
  const tap = (target: FakeButton) => {
    let prevented = false;
    listener?.({ target, preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { tap, giveUp: () => giveUp(), listening: () => listener !== null };
}

describe("taps before the page hydrates", () => {
  afterEach(() => {
    replayEarlyTaps();
    delete (globalThis as { window?: unknown }).window;
  });

  it("are made again once hydrated: each button once, in the order first tapped", () => {
    const p = page();
    const order: string[] = [];
    const add = button({ click: () => order.push("add") });
    const show = button({ click: () => order.push("show") });
    p.tap(add);
    p.tap(show);
    p.tap(add);
    replayEarlyTaps();
    expect(order).toEqual(["add", "show"]);
    expect(p.listening()).toBe(false);
    replayEarlyTaps();
    expect(order).toHaveLength(2);
  });

  it("stop being noted when React starts hydrating: a tap after that is React's alone", () => {
    const p = page();
    const before = button();
    const during = button();
    p.tap(before);
    stopNotingTaps();
    expect(p.listening()).toBe(false);
    p.tap(during);
    replayEarlyTaps();
    expect([before.clicks, during.clicks]).toEqual([1, 0]);
  });

  it("skip a button gone from the page or disabled since", () => {
    const p = page();
    const gone = button();
    const disabled = button();
    p.tap(gone);
    p.tap(disabled);
    gone.isConnected = false;
    disabled.disabled = true;
    replayEarlyTaps();
    expect(gone.clicks + disabled.clicks).toBe(0);
  });

  it("hold a form's submit for the page; if the scripts never start, the browser sends it", () => {
    const form = {};
    const p = page();
    const submit = button({ type: "submit", form });
    expect(p.tap(submit)).toBe(true);
    expect(p.tap(button({ type: "button", form }))).toBe(false);
    // No scripts by the time limit: noting stops and the held form is sent, once.
    p.giveUp();
    expect(p.listening()).toBe(false);
    expect(submit.clicks).toBe(1);
    expect(p.tap(button({ type: "submit", form }))).toBe(false);
    replayEarlyTaps();
    expect(submit.clicks).toBe(1);
  });

  it("give up quietly once the scripts have started", () => {
    const p = page();
    const submit = button({ type: "submit", form: {} });
    p.tap(submit);
    stopNotingTaps();
    p.giveUp();
    expect(submit.clicks).toBe(0);
    replayEarlyTaps();
    expect(submit.clicks).toBe(1);
  });

  it("note nothing for a disabled button or a click outside any button", () => {
    const p = page();
    const disabled = button({ disabled: true });
    p.tap(disabled);
    const outside = button({ closest: () => null });
    p.tap(outside);
    disabled.disabled = false;
    replayEarlyTaps();
    expect(disabled.clicks + outside.clicks).toBe(0);
  });

  it("do nothing on a page without the script", () => {
    (globalThis as { window?: unknown }).window = {};
    expect(() => replayEarlyTaps()).not.toThrow();
  });
});
