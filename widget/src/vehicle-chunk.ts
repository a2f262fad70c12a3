// Loads the number plate look-up (vehicle-lookup.tsx) on first use. The admin SPA and the tests
// take it as an ordinary lazy module; the widget build swaps this file for vehicle-chunk.widget.ts
// (vite.widget.config.ts), which loads the separately built widget-vehicle.js from `apiBase`.
export const loadVehicleLookup = (_apiBase: string): Promise<typeof import('./vehicle-lookup')> => import('./vehicle-lookup');
