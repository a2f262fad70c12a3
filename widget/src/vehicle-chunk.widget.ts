// The widget's loader of the number plate look-up: widget-vehicle.js (vite.widget-vehicle.config.ts),
// an ES module the API's server serves beside widget.js, fetched the first time a motorist types
// a registration. The browser keeps one module per address, so later calls cost nothing.
import type { loadVehicleLookup as load } from './vehicle-chunk';

export const loadVehicleLookup: typeof load = (apiBase) => import(/* @vite-ignore */ `${apiBase}/widget-vehicle.js`);
