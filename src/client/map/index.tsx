/** The map (`/map`), loaded on demand: Leaflet and its CSS stay out of the other screens' bundles. */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const MapPage = lazyPage('MapPage', () => import('./MapPage'));

const map: ClientFeature = {
  routes: [<Route key="map" path="/map" element={<MapPage />} />],
};

export default map;
