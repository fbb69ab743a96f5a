/**
 * The MUI theme (over react-admin's default): the product's colours, tooltips after 200 ms at a 5 px
 * distance (SPEC section 9), the side panel width, the one focus indicator and reduced motion when asked for
 * (docs/accessibility.md).
 *
 * Colours meet WCAG 2.1 AA: text on its background 4.5:1, controls, graphics and the focus ring 3:1. White
 * on secondary.main is 5.0:1, on primary.light 5.4:1, warning.main 5.4:1, info.main 7.4:1; the focus ring (primary.main) is 6.8:1 on paper and 6.3:1 on the page.
 */
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

export const SIDEBAR_WIDTH = 264;
export const SIDE_PANEL_WIDTH = 450;
export const TOOLTIP_DELAY_MS = 200;
export const POPOVER_DISTANCE = 5;
const PRIMARY = '#1f5f8b';
/** Drawn outside the control, so it contrasts with the page around it whatever the control's own colour. */
export const FOCUS_RING = { outline: `3px solid ${PRIMARY}`, outlineOffset: '2px' } as const;

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    mode: 'light',
    primary: { main: PRIMARY, dark: '#154463', light: '#3a6f95', contrastText: '#ffffff' },
    secondary: { main: '#b4531a', contrastText: '#ffffff' },
    // MUI's default warning and info are under 4.5:1 as text (outlined chips, alerts' icons) on white.
    warning: { main: '#a65400', contrastText: '#ffffff' },
    info: { main: '#01579b', contrastText: '#ffffff' },
    background: { default: '#f4f6f8', paper: '#ffffff' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2rem', fontWeight: 600 },
    h2: { fontSize: '1.6rem', fontWeight: 600 },
    h3: { fontSize: '1.35rem', fontWeight: 600 },
  },
  components: {
    ...defaultLightTheme.components,
    // Every spinner and progress bar has a name for screen readers (axe aria-progressbar-name), wherever it is drawn
    // (react-admin's and the data grid's included); one given on the spot wins.
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiCssBaseline: {
      styleOverrides: {
        // Links, and anything given a tabindex, show where the keyboard is. Text fields show it by their
        // own thicker primary border instead, and a heading focused after navigation is not a control.
        ':focus-visible': FOCUS_RING,
        '.MuiInputBase-input:focus-visible, [tabindex="-1"]:focus-visible': { outline: 'none' },
        // On a phone the list's floating "create" button sits over the page's lower right corner: room under the
        // last row, above the pagination, lets that row (and its "outside your turf" note) scroll out from under it.
        '.RaList-main:has(.RaCreateButton-floating) .RaList-content > .MuiList-root': { paddingBottom: 72 },
        // Someone who asked their system for less motion gets menus, dialogs and panels in place at once, and no
        // ripple on a click (WCAG 2.3.3). Spinners keep turning: they say the screen is still loading.
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            transitionDuration: '0s !important',
            transitionDelay: '0s !important',
            scrollBehavior: 'auto !important',
          },
          '.MuiTouchRipple-root': { display: 'none' },
        },
      },
    },
    MuiButtonBase: {
      styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } },
    },
    MuiTooltip: {
      defaultProps: {
        enterDelay: TOOLTIP_DELAY_MS,
        enterNextDelay: TOOLTIP_DELAY_MS,
        arrow: true,
        slotProps: { popper: { modifiers: [{ name: 'offset', options: { offset: [0, POPOVER_DISTANCE] } }] } },
      },
    },
  },
};
