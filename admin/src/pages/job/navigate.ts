// The driver's Navigate buttons (docs/product.md §20): links that open the phone's own map app
// with directions to a place, either a position (the one the motorist sent) or a postcode.

export type Place = { lat: number; lng: number } | { postcode: string };

const query = (place: Place) => ('postcode' in place ? `${place.postcode}, UK` : `${place.lat.toFixed(6)},${place.lng.toFixed(6)}`);

/** Google Maps, Apple Maps and Waze, each with directions to `place`. */
export function navigationLinks(place: Place): { app: 'Google Maps' | 'Apple Maps' | 'Waze'; href: string }[] {
  const q = encodeURIComponent(query(place));
  return [
    { app: 'Google Maps', href: `https://www.google.com/maps/dir/?api=1&destination=${q}` },
    { app: 'Apple Maps', href: `https://maps.apple.com/?daddr=${q}` },
    { app: 'Waze', href: 'postcode' in place ? `https://waze.com/ul?q=${q}&navigate=yes` : `https://waze.com/ul?ll=${q}&navigate=yes` },
  ];
}
