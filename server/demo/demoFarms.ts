import type { GatewayTypeKey } from '../../src/contract/gatewayTypes';

/** The demo's password for every demo user; it meets the lihua edition's 10-character rule too. */
export const DEMO_PASSWORD = 'Roost12345';

/**
 * Demo gateways report every 30 s: the overview visibly moves, while 14 days of raw readings
 * from 42 houses stay near 350 MB in the embedded database.
 */
export const DEMO_INTERVAL_SECONDS = 30;

export const DEMO_USERS = [
  { username: 'admin', realName: 'Demo Administrator', roleKey: 'administrator' },
  { username: 'company', realName: 'Wang Li (company manager)', roleKey: 'company_manager' },
  { username: 'area', realName: 'Zhao Min (area manager)', roleKey: 'area_manager' },
  { username: 'farm', realName: 'Liu Yang (farm manager)', roleKey: 'farm_manager' },
  { username: 'shack', realName: 'Chen Jie (house manager)', roleKey: 'shack_manager' },
] as const;

export interface DemoFarm {
  key: string;
  name: string;
  company: 'north' | 'south';
  breed: 'broiler' | 'layer';
  provinceAdcode: string;
  provinceName: string;
  longitude: number;
  latitude: number;
  address: string;
  houses: number;
}

/** Real places in poultry-farming provinces; coordinates of the named county or district. */
export const DEMO_FARMS: DemoFarm[] = [
  {
    key: 'weifang',
    name: 'Weifang Broiler Farm',
    company: 'north',
    breed: 'broiler',
    provinceAdcode: '370000',
    provinceName: '山东省',
    longitude: 119.1619,
    latitude: 36.7069,
    address: 'Zhucheng, Weifang, Shandong',
    houses: 8,
  },
  {
    key: 'shijiazhuang',
    name: 'Gaocheng Broiler Farm',
    company: 'north',
    breed: 'broiler',
    provinceAdcode: '130000',
    provinceName: '河北省',
    longitude: 114.8469,
    latitude: 38.0217,
    address: 'Gaocheng, Shijiazhuang, Hebei',
    houses: 6,
  },
  {
    key: 'tieling',
    name: 'Tieling Broiler Farm',
    company: 'north',
    breed: 'broiler',
    provinceAdcode: '210000',
    provinceName: '辽宁省',
    longitude: 123.8443,
    latitude: 42.2906,
    address: 'Yinzhou, Tieling, Liaoning',
    houses: 6,
  },
  {
    key: 'zhumadian',
    name: 'Zhumadian Broiler Farm',
    company: 'north',
    breed: 'broiler',
    provinceAdcode: '410000',
    provinceName: '河南省',
    longitude: 114.0222,
    latitude: 32.9803,
    address: 'Suiping, Zhumadian, Henan',
    houses: 6,
  },
  {
    key: 'qingyuan',
    name: 'Qingyuan Layer Farm',
    company: 'south',
    breed: 'layer',
    provinceAdcode: '440000',
    provinceName: '广东省',
    longitude: 113.056,
    latitude: 23.682,
    address: 'Qingcheng, Qingyuan, Guangdong',
    houses: 6,
  },
  {
    key: 'mianyang',
    name: 'Mianyang Layer Farm',
    company: 'south',
    breed: 'layer',
    provinceAdcode: '510000',
    provinceName: '四川省',
    longitude: 104.6796,
    latitude: 31.4675,
    address: 'Fucheng, Mianyang, Sichuan',
    houses: 5,
  },
  {
    key: 'suqian',
    name: 'Suqian Layer Farm',
    company: 'south',
    breed: 'layer',
    provinceAdcode: '320000',
    provinceName: '江苏省',
    longitude: 118.2752,
    latitude: 33.9631,
    address: 'Sucheng, Suqian, Jiangsu',
    houses: 5,
  },
];

/** Several controller families, a collector and an alarm unit, as farms really mix them. */
export const DEMO_GATEWAY_TYPES: GatewayTypeKey[] = [11, 14, 15, 25, 26, 50, 27, 60, 24, 31, 21];
