// @vitest-environment happy-dom
import './setup-dom';
import { renderHook } from '@testing-library/react';
import type L from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import { useMapView } from '../../../src/client/map/useMapView';

/** A map that records where it was told to go and lets the test fire its events. */
function fakeMap() {
  const handlers = new Map<string, () => void>();
  return {
    on: (name: string, fn: () => void) => handlers.set(name, fn),
    off: (name: string) => handlers.delete(name),
    fire: (name: string) => handlers.get(name)?.(),
    getCenter: () => ({ lat: 46.8, lng: -92.1 }),
    getZoom: () => 17,
    fitBounds: vi.fn(),
    flyTo: vi.fn(),
    flyToBounds: vi.fn(),
  };
}

const BOUNDS: [number, number, number, number] = [-100, 40, -90, 48];

describe('where the map looks', () => {
  it('fits the first markers answer when the person has not moved yet', () => {
    const map = fakeMap();
    const { result } = renderHook(() => useMapView(map as unknown as L.Map));
    result.current.fitOnce(BOUNDS);
    result.current.fitOnce(BOUNDS);
    expect(map.fitBounds).toHaveBeenCalledTimes(1);
  });

  it('a search picked before the first markers answer is not undone by their fit', () => {
    const map = fakeMap();
    const { result } = renderHook(() => useMapView(map as unknown as L.Map));
    result.current.flyTo({ kind: 'site', id: 1, label: 'Keyboard Lofts', lat: 46.787, lng: -92.1 });
    result.current.fitOnce(BOUNDS);
    expect(map.flyTo).toHaveBeenCalledWith([46.787, -92.1], 17, expect.anything());
    expect(map.fitBounds).not.toHaveBeenCalled();
  });

  it('a map dragged before the first markers answer stays where it was dragged', () => {
    const map = fakeMap();
    const { result } = renderHook(() => useMapView(map as unknown as L.Map));
    map.fire('dragstart');
    result.current.fitOnce(BOUNDS);
    expect(map.fitBounds).not.toHaveBeenCalled();
  });
});
