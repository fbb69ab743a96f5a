/** The map's global styles: the plain background where no tile has loaded, cluster bubbles and pins. */
import GlobalStyles from '@mui/material/GlobalStyles';
import { FOCUS_RING } from '../theme/theme';

/** Shown where no tile has loaded (no network, tiles switched off): land-neutral, with enough contrast for outlines. */
const BACKGROUND = '#e3e9ed';

export const mapStyles = (
  <GlobalStyles
    styles={{
      '.om-map .leaflet-container': { background: BACKGROUND, fontFamily: 'inherit' },
      '.leaflet-marker-icon.om-cluster': {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        borderRadius: '50%',
        background: 'rgba(31, 95, 139, 0.88)',
        color: '#fff',
        fontWeight: 700,
        fontSize: 12,
        boxShadow: '0 0 0 5px rgba(31, 95, 139, 0.25)',
        border: '2px solid #fff',
        boxSizing: 'border-box',
        cursor: 'pointer',
      },
      '.leaflet-marker-icon.om-cluster-contractors': {
        background: 'rgba(109, 76, 65, 0.9)',
        boxShadow: '0 0 0 5px rgba(109, 76, 65, 0.25)',
        borderRadius: 6,
      },
      // A dark edge round every pin keeps it 3:1 or more against the map whatever its fill (WCAG 1.4.11); the
      // status glyph is white with a dark halo so it reads on any fill.
      '.om-pin span': {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: '100%',
        height: '100%',
        borderRadius: '50%',
        border: '3px solid #fff',
        boxSizing: 'border-box',
        boxShadow: '0 0 0 1.5px #263238, 0 1px 3px rgba(0,0,0,0.45)',
        color: '#fff',
        fontSize: 9,
        lineHeight: 1,
        textShadow: '0 0 2px #000, 0 0 1px #000',
      },
      '.om-contractor span': { borderRadius: 3, border: '2px solid #fff', transform: 'rotate(45deg)' },
      '.om-point span': { borderRadius: '50%', border: '2px solid #fff', background: '#6a1b9a' },
      '.om-cluster-points span': { background: '#6a1b9a', color: '#fff' },
      '.om-pin, .om-cluster': { outline: 'none' },
      // Drawing a turf: taps on markers reach the map and add a corner (drawing.ts).
      '.om-drawing .om-pin, .om-drawing .om-cluster': { pointerEvents: 'none' },
      '.om-pin:focus-visible, .om-cluster:focus-visible': FOCUS_RING,
    }}
  />
);
