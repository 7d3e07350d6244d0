/**
 * Two breed standards shipped as common breeds. Values are rounded from the public management
 * guides named in the README (a broiler and a brown layer); between the ages listed here the
 * targets are interpolated linearly.
 */
export interface StandardRow {
  ageDay: number;
  temperature: number;
  humidity: number;
  co2: number;
  lightHours: number;
  lightIntensity: number;
  waterPerHead: number;
  weight: number;
  feedPerHead: number;
  eggWeight?: number;
  layingRate?: number;
  survivalRate: number;
}

export interface BreedStandard {
  code: string;
  name: string;
  factory: string;
  description: string;
  rows: StandardRow[];
  immune: Array<{ ageDay: number; content: string }>;
}

// Broiler: house temperature falls from 33 °C at placement to about 19 °C at 6 weeks; weight
// (grams), feed and water (grams per bird per day) follow the as-hatched performance tables.
export const BROILER: BreedStandard = {
  code: 'BROILER-STD',
  name: 'Broiler (standard)',
  factory: 'Public broiler management guide',
  description: 'Fast-growing broiler, as-hatched, 0–56 days.',
  rows: [
    {
      ageDay: 0,
      temperature: 33,
      humidity: 60,
      co2: 3000,
      lightHours: 23,
      lightIntensity: 30,
      waterPerHead: 0,
      weight: 42,
      feedPerHead: 0,
      survivalRate: 100,
    },
    {
      ageDay: 7,
      temperature: 29,
      humidity: 60,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 20,
      waterPerHead: 65,
      weight: 200,
      feedPerHead: 35,
      survivalRate: 99.2,
    },
    {
      ageDay: 14,
      temperature: 26,
      humidity: 60,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 130,
      weight: 520,
      feedPerHead: 75,
      survivalRate: 98.8,
    },
    {
      ageDay: 21,
      temperature: 23,
      humidity: 60,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 210,
      weight: 1000,
      feedPerHead: 120,
      survivalRate: 98.4,
    },
    {
      ageDay: 28,
      temperature: 21,
      humidity: 65,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 280,
      weight: 1630,
      feedPerHead: 160,
      survivalRate: 97.9,
    },
    {
      ageDay: 35,
      temperature: 19,
      humidity: 65,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 330,
      weight: 2300,
      feedPerHead: 190,
      survivalRate: 97.4,
    },
    {
      ageDay: 42,
      temperature: 18,
      humidity: 65,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 360,
      weight: 2950,
      feedPerHead: 210,
      survivalRate: 96.9,
    },
    {
      ageDay: 56,
      temperature: 18,
      humidity: 65,
      co2: 3000,
      lightHours: 18,
      lightIntensity: 10,
      waterPerHead: 390,
      weight: 4100,
      feedPerHead: 235,
      survivalRate: 96.0,
    },
  ],
  immune: [
    { ageDay: 1, content: 'Marek’s disease / IB spray at hatchery' },
    { ageDay: 10, content: 'Newcastle disease + IB, eye drop' },
    { ageDay: 14, content: 'Gumboro (IBD), drinking water' },
    { ageDay: 21, content: 'Newcastle disease booster, drinking water' },
  ],
};

// Brown layer: rearing from day-old to 17 weeks, then laying; egg weight (g) and hen-day laying
// rate (%) follow the performance table, peaking near 95 % around week 27.
export const LAYER: BreedStandard = {
  code: 'LAYER-BROWN',
  name: 'Brown layer (standard)',
  factory: 'Public layer management guide',
  description: 'Brown egg layer, rearing and laying, 0–560 days.',
  rows: [
    {
      ageDay: 0,
      temperature: 34,
      humidity: 60,
      co2: 3000,
      lightHours: 22,
      lightIntensity: 30,
      waterPerHead: 0,
      weight: 37,
      feedPerHead: 0,
      survivalRate: 100,
    },
    {
      ageDay: 7,
      temperature: 31,
      humidity: 60,
      co2: 3000,
      lightHours: 20,
      lightIntensity: 25,
      waterPerHead: 20,
      weight: 65,
      feedPerHead: 12,
      survivalRate: 99.6,
    },
    {
      ageDay: 21,
      temperature: 26,
      humidity: 60,
      co2: 3000,
      lightHours: 14,
      lightIntensity: 15,
      waterPerHead: 45,
      weight: 190,
      feedPerHead: 28,
      survivalRate: 99.2,
    },
    {
      ageDay: 42,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 10,
      lightIntensity: 10,
      waterPerHead: 90,
      weight: 500,
      feedPerHead: 50,
      survivalRate: 98.8,
    },
    {
      ageDay: 112,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 10,
      lightIntensity: 10,
      waterPerHead: 140,
      weight: 1400,
      feedPerHead: 82,
      survivalRate: 97.5,
    },
    {
      ageDay: 126,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 13,
      lightIntensity: 20,
      waterPerHead: 170,
      weight: 1550,
      feedPerHead: 95,
      eggWeight: 48,
      layingRate: 10,
      survivalRate: 97.3,
    },
    {
      ageDay: 189,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 16,
      lightIntensity: 20,
      waterPerHead: 220,
      weight: 1900,
      feedPerHead: 112,
      eggWeight: 60,
      layingRate: 95,
      survivalRate: 96.6,
    },
    {
      ageDay: 350,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 16,
      lightIntensity: 20,
      waterPerHead: 230,
      weight: 1980,
      feedPerHead: 114,
      eggWeight: 64,
      layingRate: 89,
      survivalRate: 94.5,
    },
    {
      ageDay: 560,
      temperature: 21,
      humidity: 60,
      co2: 3000,
      lightHours: 16,
      lightIntensity: 20,
      waterPerHead: 230,
      weight: 2000,
      feedPerHead: 115,
      eggWeight: 66,
      layingRate: 78,
      survivalRate: 91.0,
    },
  ],
  immune: [
    { ageDay: 1, content: 'Marek’s disease at hatchery' },
    { ageDay: 14, content: 'Gumboro (IBD), drinking water' },
    { ageDay: 28, content: 'Newcastle disease + IB booster' },
    { ageDay: 84, content: 'Avian encephalomyelitis + fowl pox, wing web' },
    { ageDay: 112, content: 'Newcastle disease + IB + EDS inactivated, injection before transfer' },
  ],
};
