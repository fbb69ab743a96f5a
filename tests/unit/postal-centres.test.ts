import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { postalCentre } from '../../src/server/imports/postal-centres.js';

// The package's whole table, read the ordinary way, to hold the compact one to the same answers.
const zipcodes = createRequire(import.meta.url)('zipcodes') as {
  codes: Record<string, { latitude: number | null; longitude: number | null }>;
};

describe('postal code centres', () => {
  it('gives the centre of a US ZIP code and of a Canadian postal area', () => {
    expect(postalCentre('91101')).toEqual({ latitude: 34.1468, longitude: -118.1391 });
    expect(postalCentre('T0A')).toEqual({ latitude: 53.9225, longitude: -111.0585 });
    expect(postalCentre('00000')).toBeNull();
  });

  it('answers as the zipcodes package does for every code it knows', () => {
    const codes = Object.entries(zipcodes.codes);
    expect(codes.length).toBeGreaterThan(44_000);
    // One comparison of every difference: 44,000 separate expectations took seconds on a busy machine.
    const differences = codes.flatMap(([code, entry]) => {
      const expected =
        Number.isFinite(entry.latitude) && Number.isFinite(entry.longitude)
          ? { latitude: entry.latitude, longitude: entry.longitude }
          : null;
      const actual = postalCentre(code);
      return actual?.latitude === expected?.latitude && actual?.longitude === expected?.longitude
        ? []
        : [{ code, expected, actual }];
    });
    expect(differences).toEqual([]);
  });
});
