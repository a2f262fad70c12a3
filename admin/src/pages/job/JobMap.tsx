// The driver on a map (docs/product.md §20), on the motorist's status page while the driver shares
// their position and the server names map tiles (MAP_TILES_URL). Leaflet and its stylesheet are in
// this file's own chunk, loaded only when there is a position to show: the status page without a
// map downloads none of it (docs/budgets.md).
import 'leaflet/dist/leaflet.css';
import { circleMarker, map as leafletMap, tileLayer, type CircleMarker, type Map as LeafletMap } from 'leaflet';
import { useEffect, useRef } from 'react';

export const MAP_LABEL = 'Map of your driver’s position';

/** Leaflet writes the attribution as HTML: the configured words are shown as text. */
const asText = (words: string) => words.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export default function JobMap({ position, tiles }: { position: { lat: number; lng: number }; tiles: { tilesUrl: string; attribution: string } }) {
  const element = useRef<HTMLDivElement>(null);
  const drawn = useRef<{ map: LeafletMap; marker: CircleMarker } | null>(null);
  const { lat, lng } = position;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is made once per tile source; the position moves its marker below
  useEffect(() => {
    if (!element.current) return;
    const map = leafletMap(element.current, { scrollWheelZoom: false }).setView([lat, lng], 14);
    tileLayer(tiles.tilesUrl, { attribution: asText(tiles.attribution), maxZoom: 19 }).addTo(map);
    const marker = circleMarker([lat, lng], { radius: 10, color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 }).addTo(map);
    drawn.current = { map, marker };
    return () => {
      map.remove();
      drawn.current = null;
    };
  }, [tiles.tilesUrl, tiles.attribution]);

  useEffect(() => {
    drawn.current?.marker.setLatLng([lat, lng]);
    drawn.current?.map.panTo([lat, lng]);
  }, [lat, lng]);

  return (
    <section aria-label={MAP_LABEL} className="overflow-hidden rounded-xl ring-1 ring-slate-900/5">
      <div ref={element} data-testid="job-map" className="h-64 w-full" />
    </section>
  );
}
