import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EARLY_TAPS_SCRIPT, replayEarlyTaps, stopNotingTaps } from "./early-taps.ts";

type FakeEvent = { type: string; detail?: number; button?: number; pointerType?: string };

type FakeButton = {
  tagName: string;
  type: string;
  target?: string;
  form: object | null;
  disabled: boolean;
  /** A link's address (for a link). */
  pathname?: string;
  search?: string;
  /** Marked as a button whose every tap counts (`data-every-tap`). */
  everyTap: boolean;
  hasAttribute: (name: string) => boolean;
  isConnected: boolean;
  clicks: number;
  events: string[];
  /** What a handler on `pointerdown` does with the event: false cancels it. */
  onPointerDown: () => boolean;
  closest: (selector: string) => FakeButton | null;
  /** Whether a tap's target is the button or inside it. */
  contains: (target: unknown) => boolean;
  /** The browser's own click (the script's give-up path). */
  click: () => void;
  /** An event the page dispatches (the replay): a click among them counts as a click. */
  dispatchEvent: (event: FakeEvent) => boolean;
};

function button(overrides: Partial<FakeButton> = {}): FakeButton {
  const b: FakeButton = {
    tagName: "BUTTON",
    type: "button",
    form: null,
    disabled: false,
    everyTap: false,
    hasAttribute: (name) => name === "data-every-tap" && b.everyTap,
    isConnected: true,
    clicks: 0,
    events: [],
    onPointerDown: () => true,
    closest: () => b,
    contains: (target) => target === b,
    click: () => {
      b.clicks += 1;
    },
    dispatchEvent: (event) => {
      // The replay's own events pass the window's hold on their way to the page.
      windowListeners.get(event.type)?.({
        ...event,
        type: event.type,
        target: b,
        stopPropagation: () => {
          throw new Error(`the replay's own ${event.type} was held`);
        },
        preventDefault: () => {},
      });
      b.events.push(event.type);
      if (event.type === "click") {
        // A tap's click follows its release; a keyboard's comes alone, with detail 0.
        const released = ["mouseup", "pointerup"].includes(b.events[b.events.length - 2] ?? "");
        expect(event.detail).toBe(released ? 1 : 0);
        b.click();
      }
      return event.type === "pointerdown" ? b.onPointerDown() : true;
    },
    ...overrides,
  };
  return b;
}

// Browser event classes: a type and its init, as dispatched.
class FakeMouseEvent {
  readonly type: string;
  constructor(type: string, init: object) {
    Object.assign(this, init);
    this.type = type;
  }
}
vi.stubGlobal("MouseEvent", FakeMouseEvent);
vi.stubGlobal("PointerEvent", FakeMouseEvent);

/** The script run in a page of its own; `tap` is a click as the browser dispatches it. */
function page() {
  const listeners = new Map<string, (e: unknown) => void>();
  let giveUp = () => {};
  const window: Record<string, unknown> = {
    location: { pathname: "/product/1", search: "" },
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      windowListeners.set(type, listener);
    },
    removeEventListener: (type: string) => {
      windowListeners.delete(type);
    },
  };
  runInNewContext(EARLY_TAPS_SCRIPT, {
    window,
    setTimeout: (f: () => void) => {
      giveUp = f;
    },
    document: {
      addEventListener: (type: string, f: (e: unknown) => void) => {
        listeners.set(type, f);
      },
      removeEventListener: (type: string) => {
        listeners.delete(type);
      },
    },
  });
  (globalThis as { window?: unknown }).window = window;
  const tap = (target: object, keys: object = {}) => {
    let prevented = false;
    listeners.get("click")?.({ target, ...keys, preventDefault: () => (prevented = true) });
    return prevented;
  };
  const type = (target: FakeField, text: string) => {
    target.typed(text);
    listeners.get("input")?.({ target });
  };
  return { tap, type, giveUp: () => giveUp(), listening: () => listeners.size > 0 };
}

/**
 * A field as the browser and React keep it: the browser's value behind the element type's own
 * `value` setter, and React's note of it behind the element's own `value` property (React fires
 * `onChange` for an `input` event only if the value differs from its note).
 */
class FakeFieldBase {
  tagName = "INPUT";
  type = "text";
  disabled = false;
  isConnected = true;
  dom = "";
  tick = false;
  get value(): string {
    return this.dom;
  }
  set value(text: string) {
    this.dom = text;
  }
  get checked(): boolean {
    return this.tick;
  }
  set checked(on: boolean) {
    this.tick = on;
  }
}
class FakeField extends FakeFieldBase {
  changes: string[] = [];
  events: string[] = [];
  /** React's note of the value (and tick), once it has hydrated the field. */
  noted: string | undefined;
  notedTick: boolean | undefined;
  /** The customer typing: the browser's value only. */
  typed(text: string) {
    this.dom = text;
  }
  /** React hydrating the field: from now on it notes writes through the element's property. */
  hydrate() {
    this.noted = this.dom;
    this.notedTick = this.tick;
    Object.defineProperty(this, "value", {
      configurable: true,
      get: () => this.dom,
      set: (text: string) => {
        this.noted = text;
        this.dom = text;
      },
    });
    Object.defineProperty(this, "checked", {
      configurable: true,
      get: () => this.tick,
      set: (on: boolean) => {
        this.notedTick = on;
        this.tick = on;
      },
    });
  }
  /** The browser's click on a tick box or radio button: it flips (or picks) it; React sees it. */
  click() {
    this.tick = this.type === "radio" ? true : !this.tick;
    this.events.push("click");
    if (this.notedTick !== undefined && this.tick !== this.notedTick) {
      this.notedTick = this.tick;
      this.changes.push(`checked: ${this.tick}`);
    }
  }
  dispatchEvent(event: { type: string }) {
    this.events.push(event.type);
    if (this.noted !== undefined && this.dom !== this.noted) {
      this.noted = this.dom;
      this.changes.push(this.dom);
    }
    return true;
  }
}
/** The page's window: the listeners that hold taps from hydration's start until the replay. */
const windowListeners = new Map<string, (event: unknown) => void>();
/**
 * A tap (or typing) while the page hydrates, as it reaches the window first: whether it was
 * stopped there (React, listening on the document, never sees it) and its default prevented.
 */
function meanwhile(type: string, target: object) {
  let stopped = false;
  let prevented = false;
  windowListeners.get(type)?.({
    type,
    target,
    stopPropagation: () => (stopped = true),
    preventDefault: () => (prevented = true),
  });
  return { stopped, prevented };
}
/** A whole tap while the page hydrates: press, release, click; whether each was stopped. */
function tapMeanwhile(target: object) {
  return ["pointerdown", "mousedown", "pointerup", "mouseup", "click"].map(
    (type) => meanwhile(type, target).stopped,
  );
}

vi.stubGlobal(
  "Event",
  class {
    readonly type: string;
    constructor(type: string) {
      this.type = type;
    }
  },
);

/** The replay, to its end: the first at once, each next one in a task of its own. */
function replay() {
  replayEarlyTaps();
  vi.runAllTimers();
}

describe("taps before the page hydrates", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    replay();
    vi.useRealTimers();
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
    replay();
    expect(order).toEqual(["add", "show"]);
    expect(p.listening()).toBe(false);
    replay();
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
    replay();
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
    replay();
    expect(gone.clicks + disabled.clicks).toBe(0);
  });

  it("hold a form's submit for the page; if the scripts never start, the browser sends it", () => {
    const form = {};
    const p = page();
    const submit = button({ type: "submit", form });
    expect(p.tap(submit)).toBe(true);
    expect(p.tap(button({ type: "button", form }))).toBe(false);
    // No scripts by the time limit: the held form is sent, once, and nothing more is held.
    p.giveUp();
    expect(submit.clicks).toBe(1);
    expect(p.tap(button({ type: "submit", form }))).toBe(false);
    replay();
    expect(submit.clicks).toBe(1);
  });

  it("give up quietly once the scripts have started", () => {
    const p = page();
    const submit = button({ type: "submit", form: {} });
    p.tap(submit);
    stopNotingTaps();
    p.giveUp();
    expect(submit.clicks).toBe(0);
    replay();
    expect(submit.clicks).toBe(1);
  });

  it("note nothing for a disabled button or a click outside any button", () => {
    const p = page();
    const disabled = button({ disabled: true });
    p.tap(disabled);
    const outside = button({ closest: () => null });
    p.tap(outside);
    disabled.disabled = false;
    replay();
    expect(disabled.clicks + outside.clicks).toBe(0);
  });

  it("are made again as a whole tap: press, release and click, as the browser dispatches them", () => {
    // Radix's tabs change on mousedown, a menu opens on pointerdown: a click alone reaches neither.
    const p = page();
    const tab = button();
    const menu = button({ onPointerDown: () => false });
    p.tap(tab);
    p.tap(menu);
    replay();
    expect(tab.events).toEqual(["pointerdown", "mousedown", "pointerup", "mouseup", "click"]);
    // A press whose pointerdown was cancelled gets no mouse events, as in the browser.
    expect(menu.events).toEqual(["pointerdown", "pointerup", "click"]);
  });

  it("give a field typed in before hydration its text back once hydrated, so React sees it typed", () => {
    const p = page();
    const name = new FakeField();
    p.type(name, "3");
    p.type(name, "3d");
    stopNotingTaps();
    // React hydrates the field, and its next render writes its own (empty) value back.
    name.hydrate();
    name.value = "";
    replay();
    expect(name.value).toBe("3d");
    expect(name.changes).toEqual(["3d"]);
    expect(name.events).toEqual(["input"]);
  });

  it("leave a field gone since as it is; tell of a select's choice and files picked with a change", () => {
    const p = page();
    const gone = new FakeField();
    const select = Object.assign(new FakeField(), { tagName: "SELECT" });
    const file = Object.assign(new FakeField(), { type: "file", files: [{ name: "cube.stl" }] });
    const noFile = Object.assign(new FakeField(), { type: "file", files: [] });
    p.type(gone, "x");
    p.type(select, "MH");
    p.type(file, "C:\\fakepath\\cube.stl");
    p.type(noFile, "");
    stopNotingTaps();
    for (const field of [gone, select, file, noFile]) field.hydrate();
    gone.isConnected = false;
    select.value = "";
    replay();
    expect(gone.events).toEqual([]);
    expect(select.events).toEqual(["change"]);
    expect(select.value).toBe("MH");
    expect(file.events).toEqual(["change"]);
    expect(noFile.events).toEqual([]);
  });

  it("hold a link followed while a tapped button waits, and follow it after the button's tap", () => {
    const p = page();
    const order: string[] = [];
    const link = (target = "") =>
      button({ tagName: "A", type: "", target, click: () => order.push("link") });
    // No button waiting: a link is the browser's to follow.
    expect(p.tap(link())).toBe(false);
    p.tap(button({ click: () => order.push("add") }));
    expect(p.tap(link(), { ctrlKey: true })).toBe(false);
    expect(p.tap(link("_blank"))).toBe(false);
    expect(p.tap(link())).toBe(true);
    replay();
    expect(order).toEqual(["add", "link"]);
  });

  it("follow a held link through the browser if the scripts never start", () => {
    const p = page();
    const add = button();
    const cart = button({ tagName: "A", type: "" });
    p.tap(add);
    p.tap(cart);
    p.giveUp();
    expect([add.clicks, cart.clicks]).toEqual([0, 1]);
  });

  it("keep what was tapped and typed when a held form or link was given up on, for a later hydration", () => {
    const p = page();
    const add = button();
    const cart = button({ tagName: "A", type: "" });
    const name = new FakeField();
    p.tap(add);
    p.type(name, "Ravi");
    p.tap(cart);
    p.giveUp();
    // The link is the browser's now; no longer held, a link tapped later is its own too.
    expect(cart.clicks).toBe(1);
    expect(p.tap(button({ tagName: "A", type: "" }))).toBe(false);
    stopNotingTaps();
    name.hydrate();
    name.value = "";
    replay();
    expect([add.clicks, cart.clicks]).toEqual([1, 1]);
    expect(name.changes).toEqual(["Ravi"]);
  });

  it("hold a button tapped again while the page hydrates, to be made once; keep a field's newest text", () => {
    const p = page();
    const add = button({ contains: (target: unknown) => target === add || target === icon });
    const icon = { closest: () => add };
    const name = new FakeField();
    p.tap(add);
    p.type(name, "Ra");
    stopNotingTaps();
    expect(windowListeners.size).toBe(8);
    // The customer taps Add to Cart again (on its icon), and types on: the tap is held whole,
    // and made once, as the impatient second tap before hydration would be; the text is React's.
    expect(tapMeanwhile(icon)).toEqual([true, true, true, true, true]);
    expect(meanwhile("click", icon).prevented).toBe(true);
    name.typed("Ravi");
    expect(meanwhile("input", name).stopped).toBe(false);
    name.hydrate();
    replay();
    expect(windowListeners.size).toBe(0);
    expect(add.clicks).toBe(1);
    expect(name.value).toBe("Ravi");
  });

  it("hold a tap made while the page hydrates, and make it after the ones noted before", () => {
    // Increase before hydration, Add to Cart while it hydrates: React would add one at once,
    // before the replayed Increase. Held, it comes after, and adds two.
    const p = page();
    const order: string[] = [];
    const increase = button({ everyTap: true, click: () => order.push("increase") });
    const add = button({ click: () => order.push("add") });
    const cartLink = button({ tagName: "A", pathname: "/cart", click: () => order.push("cart") });
    p.tap(increase);
    stopNotingTaps();
    expect(tapMeanwhile(add)).toEqual([true, true, true, true, true]);
    // A link followed meanwhile waits too, and the replay ends with it.
    expect(meanwhile("click", cartLink)).toEqual({ stopped: true, prevented: true });
    replayEarlyTaps();
    // Tapped again during the replay, Add to Cart is still held, and still waits once.
    expect(meanwhile("click", add).stopped).toBe(true);
    vi.runAllTimers();
    expect(order).toEqual(["increase", "add", "cart"]);
    // Once all is made, taps are React's again.
    expect(windowListeners.size).toBe(0);
  });

  it("let a link opened elsewhere and a tap outside any control through while holding", () => {
    const p = page();
    const add = button();
    const newTab = button({ tagName: "A", pathname: "/cart", target: "_blank" });
    const link = button({ tagName: "A", pathname: "/cart" });
    p.tap(add);
    stopNotingTaps();
    expect(meanwhile("click", newTab).stopped).toBe(false);
    expect(windowListeners.get("click")).toBeDefined();
    let stopped = false;
    windowListeners.get("click")?.({
      type: "click",
      target: link,
      ctrlKey: true,
      stopPropagation: () => (stopped = true),
      preventDefault: () => {},
    });
    expect(stopped).toBe(false);
    expect(meanwhile("click", { closest: () => null }).stopped).toBe(false);
    replay();
    expect([add.clicks, newTab.clicks, link.clicks]).toEqual([1, 0, 0]);
  });

  it("hold nothing when nothing was noted; once hydration has taken too long, let taps through", () => {
    page();
    stopNotingTaps();
    expect(windowListeners.size).toBe(0);
    replay();
    const p = page();
    const add = button();
    const show = button();
    const later = button();
    p.tap(add);
    p.tap(show);
    stopNotingTaps();
    vi.advanceTimersByTime(10_000);
    // The page handles taps itself now; Add to Cart tapped again is its own, not made again.
    expect(meanwhile("click", later).stopped).toBe(false);
    expect(meanwhile("click", add).stopped).toBe(false);
    // A hydration that ends later still makes what was noted and not tapped since.
    replay();
    expect([add.clicks, show.clicks, later.clicks]).toEqual([0, 1, 0]);
    expect(windowListeners.size).toBe(0);
  });

  it("hold a press that the replay's end comes in the middle of, and make it once it is released", () => {
    // A menu opens on the press: the press held, the click let through after the replay ended,
    // and the menu would never open.
    const p = page();
    const add = button();
    const menu = button();
    p.tap(add);
    stopNotingTaps();
    expect(meanwhile("pointerdown", menu).stopped).toBe(true);
    expect(meanwhile("mousedown", menu)).toEqual({ stopped: true, prevented: true });
    replay();
    expect(add.clicks).toBe(1);
    expect(windowListeners.size).toBe(8);
    expect(meanwhile("pointerup", menu).stopped).toBe(true);
    expect(meanwhile("click", menu).stopped).toBe(true);
    vi.runAllTimers();
    expect(menu.events).toEqual(["pointerdown", "mousedown", "pointerup", "mouseup", "click"]);
    expect(windowListeners.size).toBe(0);
  });

  it("let go of a press that turns into a scroll, or whose click lands elsewhere", () => {
    const p = page();
    const add = button();
    const menu = button();
    p.tap(add);
    stopNotingTaps();
    meanwhile("pointerdown", menu);
    replay();
    meanwhile("pointercancel", menu);
    expect(windowListeners.size).toBe(0);
    expect(menu.clicks).toBe(0);
    const q = page();
    q.tap(add);
    stopNotingTaps();
    meanwhile("pointerdown", menu);
    replay();
    meanwhile("click", { closest: () => null });
    expect(windowListeners.size).toBe(0);
    expect(menu.clicks).toBe(0);
  });

  it("don't hold a link when only typing waits; make a keyboard's click as one", () => {
    const p = page();
    const name = new FakeField();
    const link = button({ tagName: "A", pathname: "/cart" });
    const send = button();
    p.type(name, "Ravi");
    stopNotingTaps();
    expect(meanwhile("click", link).stopped).toBe(false);
    // Enter on a focused button: a click with no press (detail 0).
    let prevented = false;
    windowListeners.get("click")?.({
      type: "click",
      target: send,
      detail: 0,
      stopPropagation: () => {},
      preventDefault: () => (prevented = true),
    });
    expect(prevented).toBe(true);
    replayEarlyTaps();
    // A second call while the replay runs starts no second one.
    replayEarlyTaps();
    vi.runAllTimers();
    expect(send.events).toEqual(["click"]);
    expect(send.clicks).toBe(1);
    expect(link.clicks).toBe(0);
  });

  it("give a tick or a radio button picked before hydration to React as a click", () => {
    const p = page();
    const tick = Object.assign(new FakeField(), { type: "checkbox" });
    const blue = Object.assign(new FakeField(), { type: "radio" });
    const red = Object.assign(new FakeField(), { type: "radio" });
    tick.tick = true;
    p.type(tick, "on");
    blue.tick = true;
    p.type(blue, "blue");
    // Red was picked first, then blue: red is no longer picked.
    p.type(red, "red");
    stopNotingTaps();
    for (const field of [tick, blue, red]) {
      // React hydrates each with the server's choice, unticked.
      field.hydrate();
      field.checked = false;
    }
    replay();
    expect(tick.changes).toEqual(["checked: true"]);
    expect(blue.changes).toEqual(["checked: true"]);
    expect(red.events).toEqual([]);
  });

  it("count every tap of a button marked so, and make each in a task of its own", () => {
    // Increase twice, then Add to Cart (twice, impatiently): React must have rendered the new
    // quantity before Add to Cart reads it, so each tap waits for the one before.
    const p = page();
    const order: string[] = [];
    const increase = button({ everyTap: true, click: () => order.push("increase") });
    const add = button({ click: () => order.push("add") });
    p.tap(increase);
    p.tap(increase);
    p.tap(add);
    p.tap(add);
    replayEarlyTaps();
    expect(order).toEqual(["increase"]);
    vi.advanceTimersToNextTimer();
    expect(order).toEqual(["increase", "increase"]);
    vi.runAllTimers();
    expect(order).toEqual(["increase", "increase", "add"]);
  });

  it("count a tap while hydrating of a button that counts every tap after the ones before", () => {
    const p = page();
    const increase = button({ everyTap: true });
    p.tap(increase);
    p.tap(increase);
    stopNotingTaps();
    // A third tap while it hydrates is held, and counts as well.
    tapMeanwhile(increase);
    replay();
    expect(increase.clicks).toBe(3);
  });

  it("skip a button disabled by a tap made before it", () => {
    // Increase up to the stock limit (two more) disables Increase: a third noted tap is skipped.
    const p = page();
    let clicks = 0;
    const increase = button({
      everyTap: true,
      click: () => {
        clicks += 1;
        if (clicks === 2) increase.disabled = true;
      },
    });
    p.tap(increase);
    p.tap(increase);
    p.tap(increase);
    replay();
    expect(clicks).toBe(2);
  });

  it("count a submit button's taps once even if marked, so its form is sent once", () => {
    const p = page();
    const send = button({ type: "submit", form: {}, everyTap: true });
    p.tap(send);
    p.tap(send);
    replay();
    expect(send.clicks).toBe(1);
  });

  it("drop the rest once a held link to another page is followed; not for a place on this page", () => {
    // React Router changes the address only once the next page's data has come: the link says
    // where it goes.
    const p = page();
    const add = button();
    const cart = button({ tagName: "A", pathname: "/cart", search: "" });
    const increase = button({ everyTap: true });
    p.tap(add);
    p.tap(cart);
    p.tap(increase);
    replay();
    expect([add.clicks, cart.clicks, increase.clicks]).toEqual([1, 1, 0]);

    const q = page();
    const add2 = button();
    const reviews = button({ tagName: "A", pathname: "/product/1", search: "" });
    const increase2 = button({ everyTap: true });
    q.tap(add2);
    q.tap(reviews);
    q.tap(increase2);
    replay();
    expect([add2.clicks, reviews.clicks, increase2.clicks]).toEqual([1, 1, 1]);
  });

  it("make a marked submit button tapped again during hydration once, so its form is sent once", () => {
    const p = page();
    const send = button({ type: "submit", form: {}, everyTap: true });
    p.tap(send);
    stopNotingTaps();
    expect(meanwhile("click", send)).toEqual({ stopped: true, prevented: true });
    replay();
    expect(send.clicks).toBe(1);
  });

  it("do nothing on a page without the script", () => {
    (globalThis as { window?: unknown }).window = {};
    expect(() => replayEarlyTaps()).not.toThrow();
  });
});
