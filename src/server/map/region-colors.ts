import type { RegionMeasure } from './map-service.js';

export type Measure = 'sites' | 'union_share';
export const MEASURES: readonly Measure[] = ['sites', 'union_share'];

/** Five blues, light to dark: number of sites, in fifths of the largest count among the regions shown. */
export const SITES_SCALE = ['#deebf7', '#9ecae1', '#6baed6', '#3182bd', '#08519c'];
/** Red (no union work) through pale yellow (half) to blue (all union), in five equal steps of the share. */
export const SHARE_SCALE = ['#d7191c', '#fdae61', '#ffffbf', '#abd9e9', '#2c7bb6'];
/** A region with nothing to measure (no sites, or no union or non-union sites for the share). */
export const NO_DATA = '#bdbdbd';

/**
 * Union share of a region = union sites / (union sites + non-union sites), among the sites the person may
 * read that match the map's filters. Union sites are those of type `union` or `pla` (project labour
 * agreement); non-union sites are those of type `non-union`; other types (pending, mega, ...) do not count
 * either way. Null when the region has neither.
 */
export function unionShare(m: RegionMeasure | undefined): number | null {
  if (!m) return null;
  const known = m.union_sites + m.non_union_sites;
  return known === 0 ? null : m.union_sites / known;
}

const step = (fraction: number) => Math.min(4, Math.max(0, Math.floor(fraction * 5)));

/** The measure's value and fill colour for one region; `maxSites` is the largest count among those shown. */
export function measureFill(
  measure: Measure,
  m: RegionMeasure | undefined,
  maxSites: number,
): { value: number | null; fill: string } {
  if (measure === 'union_share') {
    const share = unionShare(m);
    return {
      value: share === null ? null : Math.round(share * 1000) / 1000,
      fill: share === null ? NO_DATA : SHARE_SCALE[step(share)],
    };
  }
  const count = m?.sites ?? 0;
  if (count === 0 || maxSites === 0) return { value: count, fill: NO_DATA };
  return { value: count, fill: SITES_SCALE[step(count / maxSites - 1e-9)] };
}
