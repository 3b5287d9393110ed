/*
 * Taps and typing before the page hydrates (decisions 0031 and 0032). The server's HTML shows
 * every button and field at once, but a button that needs React (Add to Cart, Show password)
 * does nothing until the scripts have run, and a field React controls is set back to React's
 * value once it hydrates. On a phone that is a second or more after the page appears: the tap or
 * the text is lost, and the customer taps again or leaves.
 *
 * EARLY_TAPS_SCRIPT, inline in the head of every rendered page, notes until React starts
 * hydrating (`stopNotingTaps()`, just before `hydrateRoot`: from then on React handles events
 * itself, hydrating what was touched first):
 *
 * - each button tapped, once however often it was tapped (an impatient second tap on Add to Cart
 *   means the same as the first), except a button marked `data-every-tap` (EVERY_TAP): a
 *   quantity stepper's Increase tapped twice means two more. A submit button's form isn't sent by
 *   the browser meanwhile: it goes once the page can handle it;
 * - each field typed in (`input`, `textarea`, `select`); its text is read when hydration starts;
 * - a link followed while a tapped button waits: the page stays, so the tap isn't lost to the
 *   next page, and the link is followed after it.
 *
 * Once the page has hydrated, `replayEarlyTaps()` makes each again, in the order noted, if it is
 * still on the page and enabled: a button or link gets a whole tap (press, release and click), a
 * field its text back as if typed, so React's `onChange` sees it. Each in a task of its own, as a
 * person's taps come: React renders what one changed before the next reads it (Increase, then Add
 * to Cart adds the new quantity).
 *
 * Once hydration has started, React handles taps itself, and would handle one at once, before
 * those noted were made again. So if anything was noted, taps on buttons and links are held from
 * then until the replay has made what was noted, and made after it, in the order tapped (a button
 * already waiting, tapped again, waits once, unless it counts every tap); a noted field typed in
 * again keeps its newest text. If the page doesn't finish hydrating within GIVE_UP_MS of its
 * start, taps are no longer held.
 *
 * If the page hasn't started hydrating by GIVE_UP_MS (a download that failed, or a very slow
 * one), nothing more is held: a form or link held meanwhile is sent or followed by the browser
 * then. Taps and text noted so far are kept for a hydration that comes later. Links need no help
 * otherwise: they work without scripts.
 */

const GLOBAL = "__lkTaps";
/**
 * Marks a button whose every tap counts (a quantity stepper's): `<Button type="button"
 * {...EVERY_TAP}>`. A submit button is noted once even so: its form is sent once.
 */
const EVERY_TAP_ATTRIBUTE = "data-every-tap";
export const EVERY_TAP = { [EVERY_TAP_ATTRIBUTE]: "" };
/** How long after the page began a held form or link waits for hydration before the browser's. */
export const GIVE_UP_MS = 10_000;

// Written small: it is in every page's HTML (the page-weight test counts it). `h`: still holding.
export const EARLY_TAPS_SCRIPT =
  "(function(){var t=[],k=0,h=1,d=document;" +
  "function p(b,e){(e||t.indexOf(b)<0)&&t.push(b)}" +
  "function n(e){var b=e.target.closest&&e.target.closest('button,a[href]');if(!b)return;" +
  "if(b.tagName=='A'){if(!h||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey||" +
  "b.target&&b.target!='_self'||!t.some(function(x){return x.tagName=='BUTTON'}))return;" +
  "e.preventDefault()}else{if(b.disabled)return;if(b.type=='submit'&&b.form){if(!h)return;" +
  `e.preventDefault()}}p(b,b.type!='submit'&&b.hasAttribute('${EVERY_TAP_ATTRIBUTE}'))}` +
  "function f(e){/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)&&p(e.target)}" +
  "function a(m){d[m]('click',n,!0);d[m]('input',f,!0);d[m]('change',f,!0)}" +
  "function g(){if(k)return[];k=1;a('removeEventListener');var l=t;t=[];return l}" +
  `a('addEventListener');window.${GLOBAL}=g;` +
  "setTimeout(function(){if(k)return;h=0;for(var i=0;i<t.length;i++){var b=t[i];" +
  "if(b.tagName=='A'||b.type=='submit'&&b.form){t.splice(i,1);" +
  "if(b.isConnected&&!b.disabled)return b.click();i--}}}," +
  `${GIVE_UP_MS})})()`;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Control = HTMLButtonElement | HTMLAnchorElement;
/** A tap to make again (`keyboard`: a click from the keyboard, made again as one). */
type Tapped = { element: Control; keyboard?: boolean };
type Noted = Tapped | { element: Field; text: string; checked: boolean };

/** What waits to be made again, in order: noted before hydration, then held while it waits. */
let queue: Noted[] = [];
/**
 * From `stopNotingTaps` (if anything was noted) until the replay has made all that waits:
 * "hold" stops taps on buttons and links and queues them; "note" (hydration took over GIVE_UP_MS)
 * lets them through, and only takes a waiting button tapped again out of the queue.
 */
let mode: "off" | "hold" | "note" = "off";
/** A replay is under way (one at a time), and its next step is due in a task. */
let replayRunning = false;
let replayDue = false;
/** A held press whose click hasn't come yet: its click is held too, whenever it comes. */
let pressed: Element | null = null;
/** The replay's own taps (and what the page does in them at once), which the hold lets through. */
let replaying = false;
let giveUpTimer: ReturnType<typeof setTimeout> | undefined;
/** The events of a tap, held whole (a control may act on the press: Radix's tabs and menus). */
const TAP_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
const HOLD_EVENTS = [...TAP_EVENTS, "pointercancel", "input", "change"];

function isField(element: Element): element is Field {
  return (
    element.tagName === "INPUT" || element.tagName === "TEXTAREA" || element.tagName === "SELECT"
  );
}

function fieldNote(element: Field): Noted {
  return { element, text: element.value, checked: "checked" in element && element.checked };
}

function countsEveryTap(element: Element): boolean {
  // As the script notes them: a submit button once, even if marked.
  return (
    element.hasAttribute(EVERY_TAP_ATTRIBUTE) && (element as HTMLButtonElement).type !== "submit"
  );
}

/**
 * Stops noting (React hydrates from now on); keeps what was noted, and each field's text. If
 * anything was, the customer's taps on buttons (and on links, while a tapped button or link
 * waits) are held from now until the replay has made it (a tap during hydration would otherwise
 * act at once, before the earlier ones: Add to Cart adding one before the noted Increase), and
 * made after it, in order. A button already waiting, tapped again, waits once (unless it counts
 * every tap). A field typed in again keeps its newest text.
 */
export function stopNotingTaps(): void {
  const take = (window as unknown as Record<string, (() => Element[]) | undefined>)[GLOBAL];
  if (!take) return;
  for (const element of take()) {
    queue.push(isField(element) ? fieldNote(element) : { element: element as Control });
  }
  if (queue.length === 0 || mode !== "off") return;
  mode = "hold";
  for (const type of HOLD_EVENTS) window.addEventListener(type, hold, true);
  // If the page doesn't finish hydrating, the customer's taps go to the page as they come.
  giveUpTimer = setTimeout(() => {
    if (mode === "hold") mode = "note";
    pressed = null;
  }, GIVE_UP_MS);
}

function stopListening(): void {
  clearTimeout(giveUpTimer);
  pressed = null;
  replayRunning = false;
  if (mode === "off") return;
  mode = "off";
  for (const type of HOLD_EVENTS) window.removeEventListener(type, hold, true);
}

const isTapped = (entry: Noted): entry is Tapped => !isField(entry.element);

/**
 * On the window, before React's listeners on the document: a tap on a button or link is stopped
 * there, press to click, and joins the queue; text typed in a waiting field is kept as its newest.
 */
function hold(event: Event): void {
  if (replaying) return;
  const target = event.target as Element | null;
  if (!target) return;
  if (event.type === "pointercancel") {
    // The press became a scroll: no click comes.
    pressed = null;
    if (replayRunning && !replayDue && queue.length === 0) stopListening();
    return;
  }
  if (!TAP_EVENTS.includes(event.type)) {
    if (isField(target)) {
      queue = queue.map((entry) => (entry.element === target ? fieldNote(target) : entry));
    }
    return;
  }
  const control = target.closest?.("button,a[href]") as Control | null;
  const wasPressed = pressed;
  // A press ends with its click (on the control, or elsewhere if the pointer moved off it).
  if (event.type === "click") pressed = null;
  if (!control || ("disabled" in control && control.disabled)) {
    if (replayRunning && !replayDue && queue.length === 0 && !pressed) stopListening();
    return;
  }
  const mouse = event as MouseEvent;
  if (mode === "note") {
    // No longer held: the page handles the tap, so a waiting button tapped again is the page's.
    if (event.type === "click" && !countsEveryTap(control)) {
      queue = queue.filter((entry) => entry.element !== control);
    }
    return;
  }
  if (control.tagName === "A" && wasPressed !== control) {
    const link = control as HTMLAnchorElement;
    // A link opened elsewhere (a new tab) leaves this page as it is; one followed here waits
    // only for a tapped button or link (as before hydration): typing doesn't hold it up.
    if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.altKey) return;
    if (link.target && link.target !== "_self") return;
    if (!queue.some(isTapped)) return;
  }
  event.stopPropagation();
  // Focus would move on the press (Radix's tabs change on focus).
  if (event.type === "mousedown") event.preventDefault();
  if (event.type === "pointerdown" || event.type === "mousedown") pressed = control;
  if (event.type !== "click") return;
  event.preventDefault();
  if (countsEveryTap(control) || !queue.some((entry) => entry.element === control)) {
    queue.push({ element: control, keyboard: mouse.detail === 0 });
  }
  if (replayRunning) replayLater();
}

/**
 * A tap as the browser dispatches one: press, release, click. A control may act on any of them:
 * Radix's tabs change on `mousedown`, a menu's stand-in opens on `pointerdown` (and then, as for a
 * real tap, gets no mouse events). The click's own behaviour (a submit button sending its form, a
 * link followed) comes after it as for a real one.
 */
function tap(element: Element, keyboard = false): void {
  if (keyboard) {
    // A button pressed with Enter or Space is clicked, with no press.
    element.dispatchEvent(
      new MouseEvent("click", { bubbles: true, cancelable: true, composed: true, detail: 0 }),
    );
    return;
  }
  const mouse = { bubbles: true, cancelable: true, composed: true, button: 0, detail: 1 };
  const pointer = { ...mouse, pointerId: 1, pointerType: "mouse", isPrimary: true };
  const pressed = element.dispatchEvent(
    new PointerEvent("pointerdown", { ...pointer, buttons: 1 }),
  );
  if (pressed) element.dispatchEvent(new MouseEvent("mousedown", { ...mouse, buttons: 1 }));
  element.dispatchEvent(new PointerEvent("pointerup", pointer));
  if (pressed) element.dispatchEvent(new MouseEvent("mouseup", mouse));
  element.dispatchEvent(new MouseEvent("click", mouse));
}

/** A link to another page than this one (not to a place on it). */
function leavesPage(element: Element): boolean {
  if (element.tagName !== "A") return false;
  const link = element as HTMLAnchorElement;
  const here = window.location;
  return link.pathname + link.search !== here.pathname + here.search;
}

/** Not text, and not a choice. */
const NOT_TEXT = new Set(["button", "submit", "reset", "image"]);

/** The `value` setter of the field's element type (not the one React puts on the element). */
function typeSetter(field: Field): ((text: string) => void) | undefined {
  for (let type = Object.getPrototypeOf(field); type; type = Object.getPrototypeOf(type)) {
    const set = Object.getOwnPropertyDescriptor(type, "value")?.set;
    if (set) return set;
  }
  return undefined;
}

/**
 * The field's text typed again, as far as React can tell. React notes a field's value through
 * the element's own `value` property and fires `onChange` for an `input` event only if the value
 * differs from the one it noted; so something else is written through that property first, and
 * the text past it, through the element type's own setter. A select, and a file input with files
 * picked, take a `change` event; a tick or a radio button picked, a click.
 */
function retype(field: Field, text: string, checked: boolean): void {
  if (field.tagName === "SELECT") {
    field.value = text;
    field.dispatchEvent(new Event("change", { bubbles: true }));
    return;
  }
  // Files picked stay picked: the page is told of them as when they were picked.
  if (field.type === "file") {
    if ((field as HTMLInputElement).files?.length) {
      field.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return;
  }
  if (field.type === "checkbox" || field.type === "radio") {
    // React takes a tick from a click, and only if the tick differs from the one it noted: note
    // the other one through the element's own property, then click to the one picked.
    if (field.type === "radio" && !checked) return;
    (field as HTMLInputElement).checked = !checked;
    field.click();
    return;
  }
  if (NOT_TEXT.has(field.type)) return;
  const setValue = typeSetter(field);
  field.value = `${text} `;
  if (setValue) setValue.call(field, text);
  else field.value = text;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Makes again what was tapped or typed before hydration, and what was tapped while it waited
 * (called once the page has hydrated): the first at once, each next one in a task of its own.
 * Once a held link to another page has been followed, the rest are dropped: they were meant for
 * the page being left. (React Router changes the address only once the next page's data has
 * come, so the link itself says where it goes.)
 */
export function replayEarlyTaps(): void {
  stopNotingTaps();
  if (replayRunning) return;
  replayRunning = true;
  // Hydrated: the give-up is for a hydration that doesn't end.
  clearTimeout(giveUpTimer);
  replayNext();
}

function replayLater(): void {
  if (replayDue) return;
  replayDue = true;
  setTimeout(replayNext, 0);
}

function replayNext(): void {
  replayDue = false;
  const entry = queue.shift();
  if (!entry) {
    // A press held but not yet released: its click is made when it comes.
    if (!pressed) stopListening();
    return;
  }
  const { element } = entry;
  if (element.isConnected && !("disabled" in element && element.disabled)) {
    replaying = true;
    try {
      if ("text" in entry) retype(entry.element, entry.text, entry.checked);
      else tap(element, entry.keyboard);
    } finally {
      replaying = false;
    }
    if (leavesPage(element)) {
      queue = [];
      stopListening();
      return;
    }
  }
  if (queue.length > 0) replayLater();
  else if (!pressed) stopListening();
}
