// Builds widget-booking.js, the booking form the widget loads when "Book this recovery" is tapped
// (widget/src/booking-chunk.widget.ts). The widget hands it its React hooks. How: vite.widget-chunk.ts.
import { widgetChunkConfig } from './vite.widget-chunk';

export const BOOKING_CHUNK_FILE = 'widget-booking.js';

export default widgetChunkConfig('widget/src/booking-form.tsx', BOOKING_CHUNK_FILE);
