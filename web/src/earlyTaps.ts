/**
 * A prerendered page shows its buttons before the app handles them: its scripts are asked for after
 * the first paint, and the first render (hydration) runs as a transition, in slices. A tap on a button
 * in that time would do nothing. The page's start script (web/vite.config.ts, `startAfterFirstPaint`)
 * holds every such tap from the first paint; it is the only way the app is loaded on a prerendered
 * page, so it is always there first. Once the first render is on screen the held taps are carried out
 * here, oldest first. Links need no help (they work as plain links).
 */
type StartScriptTaps = { held: HTMLElement[]; stop(): void };

/** Called once the app's first render is on screen: taps go to the app from now on. */
export function replayHeldTaps(): void {
  const early = (window as unknown as { wbsEarlyTaps?: StartScriptTaps }).wbsEarlyTaps;
  if (!early) return; // not a prerendered page
  early.stop();
  for (const button of early.held.splice(0)) if (button.isConnected) button.click();
}
