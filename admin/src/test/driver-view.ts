// A driver's page's view of one job, for the screens' tests: accepted, with a balance of £149.76
// left to pay, and whatever `over` changes.
import type { DriverView } from '#shared/booking-responses';

export const driverView = (over: Partial<DriverView> = {}): DriverView => ({
  reference: 'KJAECF76R',
  status: 'accepted',
  companyName: 'Demo Recovery Co.',
  customerName: 'Alex Driver',
  customerPhone: '+447700900123',
  registration: 'AB12 CDE',
  note: 'Hard shoulder, northbound, after junction 18',
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'LS1 4AP',
  vehicleType: 'Car',
  problemType: 'Engine failure',
  gearbox: 'Automatic',
  rolling: 'Not rolling',
  passengers: 2,
  balance: 149.76,
  balanceRecorded: null,
  payByLink: false,
  payLink: null,
  position: null,
  eta: { minutes: 25, at: new Date(Date.now() + 25 * 60_000).toISOString(), fromPosition: false },
  sharingPosition: false,
  scheduledFor: null,
  windowMinutes: null,
  ...over,
});
