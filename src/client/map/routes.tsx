/**
 * The map's route, loaded on demand (Leaflet and its CSS stay out of the other screens' bundles). The shell
 * puts `mapRoutes` inside its layout routes (resources/registry.tsx `layoutRoutes`).
 */
import { Route } from 'react-router-dom';
import { lazyPage } from '../routing/lazyPage';

const MapPage = lazyPage('MapPage', () => import('./MapPage'));

export const MAP_PATH = '/map';

export const mapRoutes = [<Route key="map" path={MAP_PATH} element={<MapPage />} />];
