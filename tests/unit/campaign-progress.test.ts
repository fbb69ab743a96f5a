import { describe, expect, it } from 'vitest';
import { campaignProgress, majorityNeeded, showingOfInterestNeeded } from '../../src/common/campaign-progress.js';

describe('campaign thresholds', () => {
  it('a 30% showing of interest rounds up to whole cards', () => {
    expect([1, 3, 9, 10, 11, 20, 33, 70, 100, 101].map(showingOfInterestNeeded)).toEqual([
      1, 1, 3, 3, 4, 6, 10, 21, 30, 31,
    ]);
  });

  it('a majority is half rounded down plus one', () => {
    expect([1, 2, 3, 10, 11, 100, 101].map(majorityNeeded)).toEqual([1, 2, 2, 6, 6, 51, 51]);
  });

  it('counts the cards against both thresholds, reached at exactly the number needed', () => {
    expect(campaignProgress(10, null, 2)).toMatchObject({
      unit_size: 10,
      unit_size_source: 'entered',
      share: 0.2,
      showing_of_interest: { needed: 3, reached: false, remaining: 1 },
      majority: { needed: 6, reached: false, remaining: 4 },
    });
    expect(campaignProgress(10, null, 3)).toMatchObject({
      showing_of_interest: { reached: true, remaining: 0 },
      majority: { reached: false, remaining: 3 },
    });
    expect(campaignProgress(10, null, 5).majority.reached).toBe(false);
    expect(campaignProgress(10, null, 6)).toMatchObject({ majority: { needed: 6, reached: true, remaining: 0 } });
    expect(campaignProgress(10, null, 12)).toMatchObject({ share: 1.2, majority: { reached: true, remaining: 0 } });
  });

  it('an entered unit size wins over the estimate; the estimate is kept beside it', () => {
    expect(campaignProgress(40, 25, 0)).toMatchObject({
      unit_size: 40,
      unit_size_source: 'entered',
      estimated_unit_size: 25,
    });
    expect(campaignProgress(null, 25, 8)).toMatchObject({
      unit_size: 25,
      unit_size_source: 'estimated',
      majority: { needed: 13 },
      showing_of_interest: { needed: 8, reached: true },
    });
  });

  it('a unit of unknown size or of 0 has no thresholds', () => {
    for (const progress of [
      campaignProgress(null, null, 4),
      campaignProgress(null, 0, 4),
      campaignProgress(undefined, undefined, 4),
    ]) {
      expect(progress).toMatchObject({
        unit_size: null,
        unit_size_source: 'unknown',
        cards: 4,
        share: null,
        showing_of_interest: { needed: null, reached: false, remaining: null },
        majority: { needed: null, reached: false, remaining: null },
      });
    }
    expect(campaignProgress(0, 30, 4)).toMatchObject({
      unit_size: 0,
      unit_size_source: 'entered',
      share: null,
      majority: { needed: null, reached: false },
    });
  });
});
