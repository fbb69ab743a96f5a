import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { textOn } from '../../../src/client/map/colors';

describe('textOn', () => {
  it('reads at 4.5:1 or more on any fill, light or dark', () => {
    const fills = [
      '#1e88e5',
      '#fb8c00',
      '#c0ca33',
      '#00acc1',
      '#9e9e9e',
      '#7cb342',
      '#ffa726',
      '#29b6f6',
      '#000000',
      '#ffffff',
      '#ffeb3b',
      '#3949ab',
      '#777777',
    ];
    for (const fill of fills) expect(getContrastRatio(fill, textOn(fill)), fill).toBeGreaterThanOrEqual(4.5);
  });
  it('is white on a dark fill and dark on a light one', () => {
    expect(textOn('#1565c0')).toBe('#ffffff');
    expect(textOn('#ffeb3b')).not.toBe('#ffffff');
  });
});
