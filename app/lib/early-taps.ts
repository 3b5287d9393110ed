/*
 * Taps made before the page hydrates (decision 0031). The server's HTML shows every button at
 * once, but a button that needs React (Add to Cart, Show password) does nothing until the scripts
 * have run. On a phone that is a second or more after the page appears: the tap is lost, and the
 * customer taps again or leaves.
 *
 * EARLY_TAPS_SCRIPT, inline in the head of every rendered page, notes which buttons are tapped
 * until React starts hydrating (`stopNotingTaps()`, just before `hydrateRoot`: from then on React
 * handles a tap itself, hydrating what was tapped first). A submit button's form isn't sent by the
 * browser meanwhile: it goes once the page can handle it. Once the page has hydrated,
 * `replayEarlyTaps()` clicks each noted button again, once however often it was tapped, if it is
 * still on the page and enabled.
 *
 * If the scripts haven't started by GIVE_UP_MS (a download that failed), the script stops noting
 * and the page is as without it; a form held meanwhile is sent by the browser then. Links need no
 * help: they work without scripts. Text typed into a field before hydration is React's own to keep.
 */

const GLOBAL = "__lkTaps";
/** How long after the page began its scripts may take before taps are left to the browser. */
export const GIVE_UP_MS = 10_000;

// Written small: it is in every page's HTML (the page-weight test counts it).
export const EARLY_TAPS_SCRIPT =
  "(function(){var t=[],k=0,d=document;" +
  "function n(e){var b=e.target.closest&&e.target.closest('button');if(!b||b.disabled)return;" +
  "if(b.type=='submit'&&b.form)e.preventDefault();t.indexOf(b)<0&&t.push(b)}" +
  "function g(){if(k)return[];k=1;d.removeEventListener('click',n,!0);var l=t;t=[];return l}" +
  `d.addEventListener('click',n,!0);window.${GLOBAL}=g;` +
  "setTimeout(function(){var l=g();for(var i=0;i<l.length;i++){var b=l[i];" +
  "if(b.type=='submit'&&b.form&&b.isConnected&&!b.disabled)return b.click()}}," +
  `${GIVE_UP_MS})})()`;

let noted: HTMLButtonElement[] = [];

/** Stops noting taps (React hydrates from now on); keeps those noted for `replayEarlyTaps`. */
export function stopNotingTaps(): void {
  const take = (window as unknown as Record<string, (() => HTMLButtonElement[]) | undefined>)[
    GLOBAL
  ];
  if (take) noted = noted.concat(take());
}

/** Clicks each button tapped before hydration again (called once the page has hydrated). */
export function replayEarlyTaps(): void {
  stopNotingTaps();
  const taps = noted;
  noted = [];
  for (const button of taps) {
    if (button.isConnected && !button.disabled) button.click();
  }
}
