/**
 * A prerendered page shows its buttons before the app handles them: the first render (hydration) runs
 * as a transition, in slices, after the app's code has loaded. A tap on a button in that time would
 * do nothing; it is held from the moment the app's code runs, and replayed once the first render is
 * on screen. Links need no help (they work as plain links).
 */
const heldTaps: HTMLElement[] = [];

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
  document.removeEventListener('click', holdTap, true);
  for (const button of heldTaps.splice(0)) if (button.isConnected) button.click();
}
