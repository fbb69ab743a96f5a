/**
 * The MUI theme (over react-admin's default): the product's colours, tooltips after 200 ms at a 5 px
 * distance (SPEC section 9), and the side panel width.
 */
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

export const SIDEBAR_WIDTH = 264;
export const SIDE_PANEL_WIDTH = 450;
export const TOOLTIP_DELAY_MS = 200;
export const POPOVER_DISTANCE = 5;

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    mode: 'light',
    primary: { main: '#1f5f8b', dark: '#154463', light: '#4f86ad', contrastText: '#ffffff' },
    secondary: { main: '#e0752d', contrastText: '#ffffff' },
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
