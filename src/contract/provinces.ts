/**
 * China's provinces as a farm's province is chosen: adcode, Chinese name (what is stored as the
 * farm's province name, as DataV writes it), English name and the capital's position, which a
 * new farm starts from. The same as public/geo/china-provinces.json (a test compares them),
 * without its 540 kB of outlines.
 */
export interface Province {
  adcode: string;
  nameZh: string;
  nameEn: string;
  /** [longitude, latitude] of the seat of government. */
  center: [number, number];
}

const TABLE: Array<[string, string, string, number, number]> = [
  ['110000', '北京市', 'Beijing', 116.4053, 39.905],
  ['120000', '天津市', 'Tianjin', 117.1902, 39.1256],
  ['130000', '河北省', 'Hebei', 114.5025, 38.0455],
  ['140000', '山西省', 'Shanxi', 112.5492, 37.857],
  ['150000', '内蒙古自治区', 'Inner Mongolia', 111.6708, 40.8183],
  ['210000', '辽宁省', 'Liaoning', 123.4291, 41.7968],
  ['220000', '吉林省', 'Jilin', 125.3245, 43.8868],
  ['230000', '黑龙江省', 'Heilongjiang', 126.6425, 45.757],
  ['310000', '上海市', 'Shanghai', 121.4726, 31.2317],
  ['320000', '江苏省', 'Jiangsu', 118.7674, 32.0415],
  ['330000', '浙江省', 'Zhejiang', 120.1536, 30.2875],
  ['340000', '安徽省', 'Anhui', 117.283, 31.8612],
  ['350000', '福建省', 'Fujian', 119.3062, 26.0753],
  ['360000', '江西省', 'Jiangxi', 115.8922, 28.6765],
  ['370000', '山东省', 'Shandong', 117.0009, 36.6758],
  ['410000', '河南省', 'Henan', 113.6654, 34.758],
  ['420000', '湖北省', 'Hubei', 114.2986, 30.5844],
  ['430000', '湖南省', 'Hunan', 112.9823, 28.1941],
  ['440000', '广东省', 'Guangdong', 113.2806, 23.1252],
  ['450000', '广西壮族自治区', 'Guangxi', 108.32, 22.824],
  ['460000', '海南省', 'Hainan', 110.3312, 20.032],
  ['500000', '重庆市', 'Chongqing', 106.505, 29.5332],
  ['510000', '四川省', 'Sichuan', 104.0657, 30.6595],
  ['520000', '贵州省', 'Guizhou', 106.7135, 26.5783],
  ['530000', '云南省', 'Yunnan', 102.7123, 25.0406],
  ['540000', '西藏自治区', 'Xizang', 91.1322, 29.6604],
  ['610000', '陕西省', 'Shaanxi', 108.948, 34.2632],
  ['620000', '甘肃省', 'Gansu', 103.8236, 36.058],
  ['630000', '青海省', 'Qinghai', 101.7789, 36.6232],
  ['640000', '宁夏回族自治区', 'Ningxia', 106.2782, 38.4664],
  ['650000', '新疆维吾尔自治区', 'Xinjiang', 87.6177, 43.7928],
  ['710000', '台湾省', 'Taiwan', 121.5091, 25.0443],
  ['810000', '香港特别行政区', 'Hong Kong', 114.1734, 22.32],
  ['820000', '澳门特别行政区', 'Macao', 113.5491, 22.199],
];

export const PROVINCES: readonly Province[] = TABLE.map(([adcode, nameZh, nameEn, lng, lat]) => ({
  adcode,
  nameZh,
  nameEn,
  center: [lng, lat],
}));

export const provinceByAdcode = (adcode: string | null | undefined): Province | undefined =>
  PROVINCES.find((p) => p.adcode === adcode);

/**
 * A farm's province as the reader's language names it. Farms store the Chinese name (as DataV
 * writes it); an English reader gets the English name. A name this table does not hold (typed
 * by hand, another country's) reads as stored.
 */
export function provinceLabel(stored: string | null | undefined, locale: string): string {
  if (!stored) return '';
  const province = PROVINCES.find((p) => p.nameZh === stored || p.adcode === stored);
  if (!province) return stored;
  return locale.startsWith('zh') ? province.nameZh : province.nameEn;
}
