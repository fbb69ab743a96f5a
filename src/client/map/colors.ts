import { getContrastRatio } from '@mui/material/styles';

/**
 * Marker colours. A site's fill is its type (the site type's own colour when an administrator set one, else
 * this palette); its ring is its status, and so is the glyph in its middle (colour is never the only sign of
 * a status: WCAG 1.4.1). Contractors are squares coloured by contractor type.
 */
const TYPE_PALETTE: Record<string, string> = {
  union: '#1e88e5',
  'non-union': '#e53935',
  pla: '#3949ab',
  'public-works': '#00897b',
  development: '#8e24aa',
  lcmt: '#6d4c41',
  lmcc: '#5d4037',
  mega: '#f4511e',
  mixed: '#7cb342',
  'new-project': '#00acc1',
  organizing: '#fb8c00',
  pending: '#9e9e9e',
  residential: '#c0ca33',
  permits: '#546e7a',
  'utility-boiler': '#795548',
};
const FALLBACK = ['#26a69a', '#ab47bc', '#ffa726', '#5c6bc0', '#66bb6a', '#ec407a', '#8d6e63', '#29b6f6'];

const STATUS_PALETTE = ['#2e7d32', '#f9a825', '#1565c0', '#6a1b9a', '#37474f', '#c62828', '#00838f', '#ef6c00'];

/** One glyph per status (by id, like the status palette); no status has no glyph. */
const STATUS_GLYPHS = ['●', '■', '▲', '◆', '★', '✚', '✖', '⬟'];

export function statusGlyph(statusId: number | null): string {
  return statusId === null ? '' : STATUS_GLYPHS[statusId % STATUS_GLYPHS.length];
}

export const CONTRACTOR_COLORS: Record<string, string> = {
  union: '#1565c0',
  'non-union': '#c62828',
  general: '#6d4c41',
  none: '#757575',
};

function hash(text: string) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

export function typeColor(type: string, custom?: Record<string, string | null | undefined>): string {
  return custom?.[type] || TYPE_PALETTE[type] || FALLBACK[hash(type) % FALLBACK.length];
}

export function statusColor(statusId: number | null, custom?: Record<number, string | null | undefined>): string {
  if (statusId === null) return '#ffffff';
  return custom?.[statusId] || STATUS_PALETTE[statusId % STATUS_PALETTE.length];
}

/**
 * Text to write on a fill an administrator may have chosen: white or black, whichever reads better. One of the
 * two always passes WCAG's 4.5:1 for any fill.
 */
export function textOn(fill: string): string {
  return getContrastRatio(fill, '#ffffff') >= getContrastRatio(fill, '#000000') ? '#ffffff' : '#000000';
}

/** Legend of the region measures; the server computes each region's fill (docs/map.md). */
export const MEASURE_LEGENDS = {
  sites: {
    title: 'Sites per region',
    stops: ['#deebf7', '#9ecae1', '#6baed6', '#3182bd', '#08519c'],
    labels: ['fewest', 'most'],
  },
  union_share: {
    title: 'Union share',
    stops: ['#d7191c', '#fdae61', '#ffffbf', '#abd9e9', '#2c7bb6'],
    labels: ['0%', '100%'],
  },
} as const;
export const NO_DATA_COLOR = '#bdbdbd';
