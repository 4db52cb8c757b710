/**
 * A prerendered page shows its buttons before the app handles them: the first render (hydration) runs
 * as a transition, in slices, after the app's code has loaded. A tap on a button in that time would
 * do nothing; it is held from the page's first paint (by its start script, web/vite.config.ts) or
 * else from the moment the app's code runs, and replayed once the first render is on screen. Links
 * need no help (they work as plain links).
 */
const heldTaps: HTMLElement[] = [];

/**
 * Taps held before this code ran: a prerendered page's start script (web/vite.config.ts) holds them
 * from its first paint, before the app's code is even asked for.
 */
type StartScriptTaps = { held: HTMLElement[]; stop(): void };
const startScriptTaps = (): StartScriptTaps | undefined =>
  (window as unknown as { wbsEarlyTaps?: StartScriptTaps }).wbsEarlyTaps;

function holdTap(event: Event) {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  heldTaps.push(button);
}

if (document.getElementById('root')?.dataset.prerendered) document.addEventListener('click', holdTap, true);

/** Called once the app's first render is on screen: taps go to the app from now on. */
export function replayHeldTaps(): void {
  const early = startScriptTaps();
  early?.stop();
  document.removeEventListener('click', holdTap, true);
  // The start script's listener came first and stopped every tap it held: its taps are the older.
  const taps = [...(early?.held.splice(0) ?? []), ...heldTaps.splice(0)];
  for (const button of taps) if (button.isConnected) button.click();
}
