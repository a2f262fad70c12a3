// Loads the booking form (booking-form.tsx) when "Book this recovery" is tapped. The admin SPA and
// the tests take it as an ordinary lazy module; the widget build swaps this file for
// booking-chunk.widget.ts (vite.widget.config.ts), which loads the separately built
// widget-booking.js from `apiBase`.
export const loadBookingForm = (_apiBase: string): Promise<typeof import('./booking-form')> => import('./booking-form');
