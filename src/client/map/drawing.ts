/**
 * The polygon tool (leaflet-geoman, MIT), loaded when an administrator starts drawing so the map's chunk stays small.
 * Its build extends the global `L`, and a map made before it loads is given its `pm` handle here.
 */
import L from 'leaflet';

type DrawingMap = L.Map & { pm?: any };

export async function polygonTool(map: L.Map) {
  const global = globalThis as unknown as { L?: typeof L };
  global.L ??= L;
  await import('@geoman-io/leaflet-geoman-free');
  await import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css');
  const drawing = map as DrawingMap;
  if (!drawing.pm) drawing.pm = new (global.L as any).PM.Map(map);
  // While drawing, the site and contractor markers let taps through to the map (mapStyles: `.om-drawing`): a tap on
  // one adds a corner instead of opening its card or zooming into its cluster.
  const container = map.getContainer();
  return {
    /** Starts a polygon: each click adds a corner, a click on the first corner closes it; `done` gets its GeoJSON. */
    start(done: (geometry: GeoJSON.Polygon, layer: L.Layer) => void) {
      drawing.off('pm:create');
      container.classList.add('om-drawing');
      drawing.once('pm:create', (event: any) => {
        container.classList.remove('om-drawing');
        done(event.layer.toGeoJSON().geometry, event.layer);
      });
      drawing.pm.enableDraw('Polygon', {
        snappable: false,
        templineStyle: { color: '#1e88e5' },
        pathOptions: { color: '#1e88e5' },
      });
    },
    stop() {
      container.classList.remove('om-drawing');
      drawing.off('pm:create');
      drawing.pm.disableDraw();
    },
  };
}
