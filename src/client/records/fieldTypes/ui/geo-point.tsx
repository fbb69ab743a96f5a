import { lazy, Suspense } from 'react';
import { geoPointWords } from '../../../../common/field-types/geo-point';
import type { ValueView } from '../displays';
import type { InputComponentProps } from '../inputs';
import { always, type FieldTypeUI, noNumber } from './define';

const GeoPointInput = lazy(() => import('../GeoPointInput'));

/** The map input is loaded with the form that needs it (Leaflet is large). */
function LazyGeoPointInput(props: InputComponentProps) {
  return (
    <Suspense fallback={<div style={{ height: 280 }} />}>
      <GeoPointInput {...props} />
    </Suspense>
  );
}

const GeoPointValue: ValueView = ({ value }) => {
  const words = geoPointWords(value);
  return words ? <span style={{ whiteSpace: 'nowrap' }}>{words}</span> : null;
};

/** A geo point: typed or clicked on a small map; `lat, lng` in lists; filtered by having one. */
export const geoPoint: FieldTypeUI = {
  type: 'geo-point',
  Input: LazyGeoPointInput,
  Value: GeoPointValue,
  filters: (d) => [{ source: `${d.slug}_null`, kind: 'has-value', label: d.label }],
  editor: () => null,
  history: geoPointWords,
  wide: always,
  structured: always,
  Options: null,
  numberFormat: noNumber,
};
