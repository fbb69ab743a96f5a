/**
 * A campaign's progress toward recognition: cards signed against the bargaining unit's size, and the two thresholds
 * organizers work to, a 30% showing of interest (enough to file for an election) and a majority of 50% + 1. The
 * server computes it (campaigns/progress.ts) and sends it with every campaign; screens only show it.
 */

/** Where the unit size came from: typed on the campaign, estimated from the targets' latest head counts, or neither. */
export type UnitSizeSource = 'entered' | 'estimated' | 'unknown';

export interface CampaignThreshold {
  /** Cards needed to reach it; null while the unit size is unknown or 0. */
  needed: number | null;
  reached: boolean;
  /** Cards still to collect (0 once reached); null while unknown. */
  remaining: number | null;
}

export interface CampaignProgress {
  unit_size: number | null;
  unit_size_source: UnitSizeSource;
  /** The estimate from head counts, also when a size is entered (so a screen can show both). */
  estimated_unit_size: number | null;
  cards: number;
  /** Cards over the unit size (may pass 1 when the unit grew smaller); null while unknown. */
  share: number | null;
  showing_of_interest: CampaignThreshold;
  majority: CampaignThreshold;
}

/** One day's cards and the running total, for the chart of cards over time. */
export interface CardsOnDay {
  day: string;
  cards: number;
  total: number;
}

export const SHOWING_OF_INTEREST_LABEL = '30% showing of interest';
export const MAJORITY_LABEL = 'Majority (50% + 1)';

/** Cards for a 30% showing: 30% of the unit, rounded up (whole numbers, so 0.3 × 10 is 3, not 3.0000000000000004). */
export function showingOfInterestNeeded(unitSize: number): number {
  return Math.ceil((unitSize * 3) / 10);
}

/** Cards for a majority: more than half, so half rounded down, plus one (10 → 6, 11 → 6). */
export function majorityNeeded(unitSize: number): number {
  return Math.floor(unitSize / 2) + 1;
}

function threshold(needed: number | null, cards: number): CampaignThreshold {
  if (needed === null) return { needed: null, reached: false, remaining: null };
  return { needed, reached: cards >= needed, remaining: Math.max(0, needed - cards) };
}

/**
 * The progress of `cards` signed, with the unit size entered on the campaign (null when left empty) and the one
 * estimated from head counts (null or 0 when no visit counted the targets). An entered size wins, 0 included; a
 * unit of 0 or unknown size has no thresholds.
 */
export function campaignProgress(
  entered: number | null | undefined,
  estimated: number | null | undefined,
  cards: number,
): CampaignProgress {
  const estimate = estimated && estimated > 0 ? estimated : null;
  const source: UnitSizeSource =
    entered !== null && entered !== undefined ? 'entered' : estimate !== null ? 'estimated' : 'unknown';
  const unit = source === 'entered' ? (entered as number) : estimate;
  const known = unit !== null && unit > 0;
  return {
    unit_size: unit,
    unit_size_source: source,
    estimated_unit_size: estimate,
    cards,
    share: known ? cards / unit : null,
    showing_of_interest: threshold(known ? showingOfInterestNeeded(unit) : null, cards),
    majority: threshold(known ? majorityNeeded(unit) : null, cards),
  };
}
