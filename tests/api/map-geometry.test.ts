import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/config.js';
import { parseMapFilters } from '../../src/server/map/filters.js';
import { measureFill, NO_DATA, SHARE_SCALE, SITES_SCALE, unionShare } from '../../src/server/map/region-colors.js';
import { parseViewport, splitAtAntimeridian, wrapLongitude } from '../../src/server/map/viewport.js';
import {
  type AreaGeometry,
  bboxIntersects,
  bboxOf,
  displayPrecision,
  type Position,
  parseAreaGeometry,
  pointInGeometry,
  simplifyGeometry,
  simplifyLine,
  vertexCount,
} from '../../src/server/regions/geometry.js';
import { parseGeoJsonUpload, UploadError } from '../../src/server/regions/upload.js';
import { countyName, stateCode, usShapes } from '../../src/server/regions/us-atlas.js';
import { sitesResource } from '../../src/server/sites/sites-resource.js';

// Pure functions of the map and regions (no server): point-in-polygon, simplification, viewports, uploads.

const { limits } = loadConfig({});

const square = (w: number, s: number, e: number, n: number): Position[] => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];

describe('point in polygon (ray casting)', () => {
  const withHole: AreaGeometry = { type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(4, 4, 6, 6)] };
  const multi: AreaGeometry = {
    type: 'MultiPolygon',
    coordinates: [[square(0, 0, 1, 1)], [square(5, 5, 6, 6), square(5.4, 5.4, 5.6, 5.6)]],
  };

  it('finds points inside, outside and in holes of a Polygon', () => {
    expect(pointInGeometry(1, 1, withHole)).toBe(true);
    expect(pointInGeometry(9.9, 0.1, withHole)).toBe(true);
    expect(pointInGeometry(5, 5, withHole)).toBe(false); // in the hole
    expect(pointInGeometry(11, 5, withHole)).toBe(false);
    expect(pointInGeometry(-0.1, 5, withHole)).toBe(false);
  });

  it('handles MultiPolygons with holes in one part', () => {
    expect(pointInGeometry(0.5, 0.5, multi)).toBe(true);
    expect(pointInGeometry(5.2, 5.2, multi)).toBe(true);
    expect(pointInGeometry(5.5, 5.5, multi)).toBe(false); // hole of the second part
    expect(pointInGeometry(3, 3, multi)).toBe(false); // between the parts
  });

  it('handles concave shapes', () => {
    // A "U": the notch between the arms is outside.
    const u: AreaGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [3, 0],
          [3, 3],
          [2, 3],
          [2, 1],
          [1, 1],
          [1, 3],
          [0, 3],
          [0, 0],
        ],
      ],
    };
    expect(pointInGeometry(0.5, 2.5, u)).toBe(true);
    expect(pointInGeometry(2.5, 2.5, u)).toBe(true);
    expect(pointInGeometry(1.5, 2.5, u)).toBe(false);
    expect(pointInGeometry(1.5, 0.5, u)).toBe(true);
  });

  it('places real places in real Census shapes', () => {
    const states = usShapes('states');
    const california = states.find((s) => s.code === '06')!;
    const nevada = states.find((s) => s.code === '32')!;
    expect(pointInGeometry(-118.25, 34.05, california.geometry)).toBe(true); // Los Angeles
    expect(pointInGeometry(-115.14, 36.17, california.geometry)).toBe(false); // Las Vegas
    expect(pointInGeometry(-115.14, 36.17, nevada.geometry)).toBe(true);
    expect(pointInGeometry(-120.5, 33.0, california.geometry)).toBe(false); // the Pacific
    const counties = usShapes('counties', ['06']);
    expect(counties.length).toBe(58);
    const la = counties.find((c) => c.code === '06037')!;
    expect(la.name).toBe('Los Angeles County, CA');
    expect(pointInGeometry(-118.25, 34.05, la.geometry)).toBe(true);
    expect(pointInGeometry(-117.16, 32.72, la.geometry)).toBe(false); // San Diego
  });
});

describe('bounding boxes and simplification', () => {
  it('computes the box of a MultiPolygon', () => {
    expect(bboxOf({ type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], [square(5, -3, 6, 6)]] })).toEqual([
      0, -3, 6, 6,
    ]);
  });

  it('tests boxes against a view crossing the antimeridian', () => {
    expect(bboxIntersects([170, -20, -170, 0], [175, -18, 178, -15])).toBe(true);
    expect(bboxIntersects([170, -20, -170, 0], [-179, -18, -175, -15])).toBe(true);
    expect(bboxIntersects([170, -20, -170, 0], [0, -18, 10, -15])).toBe(false);
    expect(bboxIntersects([-10, -10, 10, 10], [20, 0, 30, 5])).toBe(false);
    expect(bboxIntersects([-10, -10, 10, 10], [5, 5, 30, 50])).toBe(true);
  });

  it('Douglas-Peucker drops points within the tolerance and keeps the ends', () => {
    const line: Position[] = [
      [0, 0],
      [1, 0.01],
      [2, -0.01],
      [3, 0],
      [4, 5],
      [5, 0],
    ];
    expect(simplifyLine(line, 0.1)).toEqual([
      [0, 0],
      [3, 0],
      [4, 5],
      [5, 0],
    ]);
    expect(simplifyLine(line, 0)).toEqual(line);
    expect(
      simplifyLine(
        [
          [0, 0],
          [1, 1],
        ],
        10,
      ),
    ).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('simplifies a real shape a lot at low zoom and little at high zoom, and keeps it valid', () => {
    const california = usShapes('states').find((s) => s.code === '06')!.geometry;
    const z3 = simplifyGeometry(california, displayPrecision(3).tolerance, displayPrecision(3).decimals)!;
    const z10 = simplifyGeometry(california, displayPrecision(10).tolerance, displayPrecision(10).decimals)!;
    expect(vertexCount(z3)).toBeLessThan(vertexCount(california) / 4);
    expect(vertexCount(z10)).toBeGreaterThan(vertexCount(z3));
    expect(() => parseAreaGeometry(z3)).not.toThrow(); // closed rings of 4+ positions
    expect(pointInGeometry(-118.25, 34.05, z3)).toBe(true);
    expect(JSON.stringify(z3).length).toBeLessThan(6_000);
  });

  it('drops islands smaller than the tolerance but never the whole shape', () => {
    const tiny: AreaGeometry = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 10, 10)], [square(20, 20, 20.001, 20.001)]],
    };
    const out = simplifyGeometry(tiny, 0.1, 3)!;
    expect(out.type).toBe('Polygon');
    const speck: AreaGeometry = { type: 'Polygon', coordinates: [square(1, 1, 1.0001, 1.0001)] };
    expect(simplifyGeometry(speck, 1, 2)).not.toBeNull();
  });
});

describe('viewports', () => {
  it('reads bbox and zoom, clamps the poles, and refuses nonsense', () => {
    expect(parseViewport({ bbox: '-10,-95,10,95', zoom: '3' })).toEqual({
      bbox: [-10, -85.05112878, 10, 85.05112878],
      zoom: 3,
    });
    expect(parseViewport({ west: '1', south: '2', east: '3', north: '4', zoom: '5.7' })).toEqual({
      bbox: [1, 2, 3, 4],
      zoom: 5,
    });
    expect(() => parseViewport({ bbox: '1,2,3', zoom: 1 })).toThrow();
    expect(() => parseViewport({ bbox: '1,2,3,4', zoom: 99 })).toThrow();
    expect(() => parseViewport({ bbox: '0,10,1,5', zoom: 1 })).toThrow();
    expect(() => parseViewport({ bbox: '1,2,3,4' }, { zoomRequired: true })).toThrow();
  });

  it('normalises boxes across the antimeridian and the whole world', () => {
    expect(parseViewport({ bbox: '170,-20,190,0', zoom: 4 }).bbox).toEqual([170, -20, -170, 0]);
    expect(parseViewport({ bbox: '-190,-20,-170,0', zoom: 4 }).bbox).toEqual([170, -20, -170, 0]);
    expect(parseViewport({ bbox: '170,-20,-170,0', zoom: 4 }).bbox).toEqual([170, -20, -170, 0]);
    expect(parseViewport({ bbox: '-400,-20,400,0', zoom: 0 }).bbox).toEqual([-180, -20, 180, 0]);
    expect(splitAtAntimeridian([170, -20, -170, 0])).toEqual([
      [170, -20, 180, 0],
      [-180, -20, -170, 0],
    ]);
    expect(wrapLongitude(190)).toBe(-170);
    expect(wrapLongitude(-540)).toBe(180 - 360);
  });
});

describe('filters', () => {
  const fields = sitesResource.fields;
  it('canonicalises lists so the same filters share an index', () => {
    const a = parseMapFilters({ 'filter[type]': ['union', 'pla'], 'filter[trade_id]': '3,1' }, sitesResource, fields);
    const b = parseMapFilters(
      { filter: JSON.stringify({ trade_ids: [1, 3], type: ['pla', 'union'] }) },
      sitesResource,
      fields,
    );
    expect(a).toEqual(b);
  });
  it('refuses unknown fields and bad values', () => {
    expect(() => parseMapFilters({ 'filter[nope]': 'x' }, sitesResource, fields)).toThrow(/cannot filter/);
    expect(() => parseMapFilters({ 'filter[contractor_type]': 'purple' }, sitesResource, fields)).toThrow(
      /contractor type/,
    );
    expect(() => parseMapFilters({ 'filter[region_id]': 'abc' }, sitesResource, fields)).toThrow(/ids/);
    expect(() => parseMapFilters({ 'filter[category]': 'mega' }, sitesResource, fields)).toThrow(/category/);
  });
});

describe('region colours', () => {
  it('computes union share from union and PLA sites against non-union sites', () => {
    expect(unionShare({ sites: 10, union_sites: 3, non_union_sites: 1 })).toBe(0.75);
    expect(unionShare({ sites: 10, union_sites: 0, non_union_sites: 0 })).toBeNull();
    expect(measureFill('union_share', { sites: 4, union_sites: 0, non_union_sites: 4 }, 4).fill).toBe(SHARE_SCALE[0]);
    expect(measureFill('union_share', { sites: 4, union_sites: 4, non_union_sites: 0 }, 4).fill).toBe(SHARE_SCALE[4]);
    expect(measureFill('union_share', undefined, 4)).toEqual({ value: null, fill: NO_DATA });
    expect(measureFill('sites', { sites: 10, union_sites: 0, non_union_sites: 0 }, 10).fill).toBe(SITES_SCALE[4]);
    expect(measureFill('sites', { sites: 1, union_sites: 0, non_union_sites: 0 }, 10).fill).toBe(SITES_SCALE[0]);
    expect(measureFill('sites', undefined, 10)).toEqual({ value: 0, fill: NO_DATA });
  });
});

describe('Census shapes and uploads', () => {
  it('names counties the Census way and reads state codes', () => {
    expect(countyName('22071', 'Orleans')).toBe('Orleans Parish, LA');
    expect(countyName('51760', 'Richmond')).toBe('Richmond city, VA');
    expect(countyName('51159', 'Richmond')).toBe('Richmond County, VA');
    expect(countyName('02020', 'Anchorage')).toBe('Anchorage, AK');
    expect(stateCode('CA')).toBe('06');
    expect(stateCode('6')).toBe('06');
    expect(stateCode('california')).toBe('06');
    expect(stateCode('Atlantis')).toBeNull();
    expect(usShapes('states').length).toBe(56);
    expect(usShapes('counties').length).toBeGreaterThan(3_000);
  });

  it('reads a FeatureCollection of postal codes and refuses bad files whole', () => {
    const good = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { ZCTA5CE20: '90012' },
          geometry: { type: 'Polygon', coordinates: [square(-118.26, 34.05, -118.23, 34.07)] },
        },
        {
          type: 'Feature',
          properties: { code: '90013', name: 'Downtown' },
          geometry: { type: 'MultiPolygon', coordinates: [[square(-118.25, 34.03, -118.23, 34.05)]] },
        },
      ],
    });
    const shapes = parseGeoJsonUpload(good, { geometryType: 'postal-code', limits });
    expect(shapes.map((s) => [s.code, s.name])).toEqual([
      ['90012', '90012'],
      ['90013', 'Downtown'],
    ]);
    const bad = (text: string) => () => parseGeoJsonUpload(text, { geometryType: 'postal-code', limits });
    expect(bad('not json')).toThrow(UploadError);
    expect(bad('{"type":"FeatureCollection","features":[]}')).toThrow(/no features/);
    expect(bad('{"type":"Topology"}')).toThrow(/FeatureCollection/);
    expect(
      bad(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: { code: '1' }, geometry: { type: 'Point', coordinates: [0, 0] } }],
        }),
      ),
    ).toThrow(/Polygon or MultiPolygon/);
    expect(
      bad(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              properties: { code: '1' },
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [0, 0],
                    [1, 0],
                    [1, 1],
                    [0, 1],
                  ],
                ],
              },
            },
          ],
        }),
      ),
    ).toThrow(/not closed/);
    expect(
      bad(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              properties: { code: '1' },
              geometry: { type: 'Polygon', coordinates: [square(400000, 3000000, 400100, 3000100)] },
            },
          ],
        }),
      ),
    ).toThrow(/projected/);
    expect(
      bad(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] } },
          ],
        }),
      ),
    ).toThrow(/no name or code/);
  });
});
