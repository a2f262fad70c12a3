// Builds widget-vehicle.js, the number plate look-up the widget loads the first time a motorist
// types a registration (widget/src/vehicle-chunk.widget.ts). How: vite.widget-chunk.ts.
import { widgetChunkConfig } from './vite.widget-chunk';

export const VEHICLE_CHUNK_FILE = 'widget-vehicle.js';

export default widgetChunkConfig('widget/src/vehicle-lookup.tsx', VEHICLE_CHUNK_FILE);
