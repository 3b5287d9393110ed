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

const GLOBAL = "__layerkartEarlyTaps";
/** How long after the page began its scripts may take before taps are left to the browser. */
export const GIVE_UP_MS = 10_000;

export const EARLY_TAPS_SCRIPT =
  "(function(){var taps=[],taken=false;" +
  "function note(e){var b=e.target&&e.target.closest&&e.target.closest('button');" +
  "if(!b||b.disabled)return;if(b.type==='submit'&&b.form)e.preventDefault();" +
  "if(taps.indexOf(b)===-1)taps.push(b)}" +
  "function take(){if(taken)return[];taken=true;" +
  "document.removeEventListener('click',note,true);var list=taps;taps=[];return list}" +
  "document.addEventListener('click',note,true);" +
  `window.${GLOBAL}=take;` +
  "setTimeout(function(){var list=take();for(var i=0;i<list.length;i++){var b=list[i];" +
  "if(b.type==='submit'&&b.form&&b.isConnected&&!b.disabled){b.click();return}}}," +
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
