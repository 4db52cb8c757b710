/**
 * A prerendered page shows its buttons before the app's code has even been asked for (docs/adr/0040-prerendered-public-pages.md):
 * a tap in that time is held from the first paint and carried out once the app handles the page,
 * never lost (src/earlyTaps.ts and the start script of web/vite.config.ts).
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE, useJourney } from './support.ts';

const journey = useJourney('early-taps');

describe('taps before the app has started', () => {
  it('the phone menu tapped while the app is still loading opens once it has loaded', async () => {
    const guest = await journey.actor('guest-early-tap', PHONE);
    const { page } = guest;
    // The app's entry script is held back: the page is painted from its markup alone.
    const heldBack: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
      heldBack.push(route);
    });
    // Not until `load`: the app's script, asked for before that event, holds it back too.
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect
      .poll(() => heldBack.length, { message: 'the app was asked for after the paint', timeout: 10_000 })
      .toBe(1);
    expect(await page.locator('#root[data-started]').count(), 'the app has not started').toBe(0);
    expect(await page.getByRole('navigation', { name: 'Navigasi utama' }).isVisible()).toBe(false);

    for (const route of heldBack.splice(0)) await route.continue();
    await page.unroute(/\/assets\/index-[^/]+\.js$/);
    await page.locator('#root[data-started]').waitFor({ state: 'attached' });
    await page.getByRole('navigation', { name: 'Navigasi utama' }).waitFor();
    guest.expectClean();
  });
});
