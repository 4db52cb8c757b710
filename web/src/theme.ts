import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  stepsSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

/** Colour palettes of the stock tokens the app never names (neither as colours nor as `colorPalette`). */
const UNUSED_PALETTES = new Set(['teal', 'cyan', 'purple', 'pink']);

const withoutUnusedPalettes = <T extends Record<string, unknown>>(colors: T): T =>
  Object.fromEntries(Object.entries(colors).filter(([name]) => !UNUSED_PALETTES.has(name))) as T;

/**
 * The stock semantic tokens with their light value only. The app is never in dark mode (nothing sets
 * the `dark` class the `_dark` condition selects), so the dark values only cost start-up time:
 * building the system is the longest single piece of start-up work on a phone, and every token is
 * work there.
 */
function lightOnly<T extends object>(node: T): T {
  const result: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(node)) {
    const token = child as { value?: unknown };
    if (!child || typeof child !== 'object') result[name] = child;
    else if (!('value' in token)) result[name] = lightOnly(child);
    else {
      const value = token.value as { _light?: unknown } | undefined;
      result[name] =
        value && typeof value === 'object' && '_light' in value ? { ...token, value: value._light } : token;
    }
  }
  return result as T;
}

/**
 * Only the recipes the app renders are part of the system (the stock `defaultConfig` carries every
 * recipe of the library, ~40 KB gzip of the initial bundle); tokens are the stock ones, less the
 * palettes and dark values the app never shows.
 */
const baseTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors ?? {}) },
    semanticTokens: lightOnly({
      ...semanticTokens,
      colors: withoutUnusedPalettes(semanticTokens.colors ?? {}),
    }),
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dialog: dialogSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      steps: stepsSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
});

/**
 * Accessible palette: a navy "brand" palette whose solid colour keeps white text above 7:1, and
 * overrides for the stock semantic tokens that fall below WCAG AA on white (error text red.500,
 * green/orange solid backgrounds of success/warning toasts, placeholder grey).
 */
const config = defineConfig({
  globalCss: {
    html: { colorPalette: 'brand' },
    body: { fontFamily: 'body', bg: 'bg.subtle', color: 'fg' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: "'Inter Variable', 'Inter', system-ui, sans-serif" },
        body: { value: "'Inter Variable', 'Inter', system-ui, sans-serif" },
      },
      colors: {
        brand: {
          50: { value: '#eef4fb' },
          100: { value: '#d6e4f5' },
          200: { value: '#adc8eb' },
          300: { value: '#7ea7dc' },
          400: { value: '#4f84ca' },
          500: { value: '#2b64b0' },
          600: { value: '#1d4f94' },
          700: { value: '#163f78' },
          800: { value: '#11315e' },
          900: { value: '#0c2344' },
          950: { value: '#07162c' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: '{colors.brand.700}' },
          contrast: { value: '{colors.white}' },
          fg: { value: '{colors.brand.700}' },
          muted: { value: '{colors.brand.100}' },
          subtle: { value: '{colors.brand.50}' },
          emphasized: { value: '{colors.brand.200}' },
          focusRing: { value: '{colors.brand.500}' },
        },
        green: { solid: { value: '{colors.green.700}' }, fg: { value: '{colors.green.800}' } },
        orange: { solid: { value: '{colors.orange.700}' }, fg: { value: '{colors.orange.800}' } },
        yellow: { fg: { value: '{colors.yellow.900}' } },
        red: { solid: { value: '{colors.red.700}' }, fg: { value: '{colors.red.700}' } },
        blue: { solid: { value: '{colors.blue.700}' }, fg: { value: '{colors.blue.800}' } },
        fg: {
          error: { value: '{colors.red.700}' },
          warning: { value: '{colors.orange.800}' },
          success: { value: '{colors.green.700}' },
          subtle: { value: '{colors.gray.500}' },
        },
        border: { error: { value: '{colors.red.600}' } },
      },
    },
  },
});

// One merge of the three (createSystem merges its arguments itself).
export const system = createSystem(defaultBaseConfig, baseTheme, config);
