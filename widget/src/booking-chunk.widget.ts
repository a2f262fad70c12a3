// The widget's loader of the booking form: widget-booking.js (vite.widget-booking.config.ts), an
// ES module the API's server serves beside widget.js, fetched when "Book this recovery" is tapped.
import type { loadBookingForm as load } from './booking-chunk';

export const loadBookingForm: typeof load = (apiBase) => import(/* @vite-ignore */ `${apiBase}/widget-booking.js`);
