import { describe, expect, it } from 'vitest';
import { article, categoryOf, chooseVehicleType, defaultRules, fuelOf, makeName, typePhrase, vehiclePhrase } from './rules';

const rows = (...names: string[]) => names.map((name, i) => ({ id: i + 1, name, enabled: true }));

describe('what the DVLA says, in rule terms', () => {
  it.each([
    [{ typeApproval: 'M1' }, 'M1'],
    [{ typeApproval: 'N1' }, 'N1'],
    [{ typeApproval: 'N3' }, 'N3'],
    [{ typeApproval: 'L3' }, 'L'],
    [{ typeApproval: 'L1e' }, 'L'],
    [{ typeApproval: 'M1G' }, 'M1'],
    [{ wheelplan: '2 WHEEL' }, 'L'],
    [{ wheelplan: '3 AXLE + 3 AXLE ARTIC' }, null],
    [{ typeApproval: 'T1' }, null],
    [{}, null],
  ])('%j is category %s', (facts, category) => expect(categoryOf(facts)).toBe(category));

  it.each([
    ['ELECTRICITY', 'electric'],
    ['HYBRID ELECTRIC', 'hybrid'],
    ['ELECTRIC DIESEL', 'hybrid'],
    ['PETROL', 'petrol'],
    ['DIESEL', 'diesel'],
    ['GAS BI-FUEL', null],
    [undefined, null],
  ])('fuel %s is %s', (fuelType, fuel) => expect(fuelOf({ fuelType })).toBe(fuel));
});

describe('defaultRules', () => {
  it('maps the starter types: motorcycles, vans and cars', () => {
    expect(defaultRules(rows('Car', 'Van', 'Motorcycle'))).toEqual([
      { category: 'L', fuel: 'any', overKg: null, vehicleTypeId: 3 },
      { category: 'N1', fuel: 'any', overKg: null, vehicleTypeId: 2 },
      { category: 'M1', fuel: 'any', overKg: null, vehicleTypeId: 1 },
    ]);
  });

  it('picks up an EV row first, a large van over 3,000 kg before the van, and an HGV row for goods vehicles', () => {
    const list = rows('Car', 'Van', 'Large Van', 'EV', 'HGV', 'Minibus');
    const rules = defaultRules(list);
    const pick = (facts: Parameters<typeof chooseVehicleType>[1]) => chooseVehicleType(rules, facts, list)?.name ?? null;
    expect(pick({ typeApproval: 'M1', fuelType: 'ELECTRICITY' })).toBe('EV');
    expect(pick({ typeApproval: 'N1', fuelType: 'ELECTRICITY', revenueWeight: 3500 })).toBe('EV');
    expect(pick({ typeApproval: 'N1', revenueWeight: 3500 })).toBe('Large Van');
    expect(pick({ typeApproval: 'N1', revenueWeight: 3000 })).toBe('Van');
    expect(pick({ typeApproval: 'N1', revenueWeight: 0 })).toBe('Van');
    expect(pick({ typeApproval: 'N3', revenueWeight: 44000 })).toBe('HGV');
    expect(pick({ typeApproval: 'M2' })).toBe('Minibus');
    expect(pick({ typeApproval: 'M1', fuelType: 'PETROL' })).toBe('Car');
    expect(pick({ typeApproval: 'L3' })).toBeNull();
    expect(pick({})).toBeNull();
  });

  it('finds rows by the words in their names, in any case', () => {
    const list = rows('Cars & small vans', 'Recovery of motorbikes', 'Electric vehicles');
    expect(defaultRules(list).map((r) => [r.category, r.fuel, list[r.vehicleTypeId - 1].name])).toEqual([
      ['any', 'electric', 'Electric vehicles'],
      ['L', 'any', 'Recovery of motorbikes'],
      ['N1', 'any', 'Cars & small vans'],
      ['M1', 'any', 'Cars & small vans'],
    ]);
  });

  it('has nothing for a company with no matching rows', () => expect(defaultRules(rows('Standard', 'Premium'))).toEqual([]));
});

describe('chooseVehicleType', () => {
  const list = rows('Car', 'Van');
  it('takes the first matching rule whose row is still offered', () => {
    const rules = [
      { category: 'any' as const, fuel: 'diesel' as const, overKg: null, vehicleTypeId: 2 },
      { category: 'M1' as const, fuel: 'any' as const, overKg: null, vehicleTypeId: 1 },
    ];
    expect(chooseVehicleType(rules, { typeApproval: 'M1', fuelType: 'DIESEL' }, list)?.name).toBe('Van');
    expect(chooseVehicleType(rules, { typeApproval: 'M1', fuelType: 'DIESEL' }, [list[0], { ...list[1], enabled: false }])?.name).toBe('Car');
    expect(chooseVehicleType(rules, { typeApproval: 'M1', fuelType: 'DIESEL' }, [list[0]])?.name).toBe('Car');
  });
});

describe('words for the motorist', () => {
  it.each([
    ['FORD', 'Ford'],
    ['MERCEDES-BENZ', 'Mercedes-Benz'],
    ['LAND ROVER', 'Land Rover'],
    ['BMW', 'BMW'],
    ['MG', 'MG'],
    ['LDV', 'LDV'],
    ['KIA', 'Kia'],
  ])('make %s reads %s', (make, name) => expect(makeName(make)).toBe(name));

  it.each([
    ['white Ford', 'a'],
    ['orange Audi', 'an'],
    ['Audi', 'an'],
    ['EV', 'an'],
    ['HGV', 'an'],
    ['SUV', 'an'],
    ['van', 'a'],
    ['utility van', 'a'],
    ['4x4', 'a'],
  ])('%s takes "%s"', (phrase, a) => expect(article(phrase)).toBe(a));

  it('says the vehicle type as a phrase and the vehicle by colour and make', () => {
    expect(typePhrase('Large Van')).toBe('a large van');
    expect(typePhrase(' EV ')).toBe('an EV');
    expect(vehiclePhrase('WHITE', 'FORD')).toBe('a white Ford');
    expect(vehiclePhrase(undefined, 'AUDI')).toBe('an Audi');
    expect(vehiclePhrase(undefined, undefined)).toBe('a vehicle');
  });
});
