// The demo company's quote (company 1, seeded with the starter rows) as the JSON body a client
// posts: the load the benchmark and the reliability suite both put on the quote route.
export const demoQuoteJson = (pickupPostcode: string, destinationPostcode: string): string =>
  JSON.stringify({
    companyId: 1,
    pickupPostcode,
    destinationPostcode,
    vehicleType: 'car',
    gearboxType: 'manual',
    rollingStatus: 'rolling',
    problemType: 'engine-failure',
    urgency: 'immediate',
    passengerCount: 0,
  });
