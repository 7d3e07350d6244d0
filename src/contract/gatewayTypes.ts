/** Gateway type keys with their model names. */
export const GATEWAY_TYPES = {
  11: 'AC2000 PLUS',
  12: 'AC2000 3G',
  14: 'PLATINUM XL+',
  15: 'PLATINUM PRO',
  21: 'collector alarm',
  23: 'iEC12-',
  25: 'iEC12',
  24: 'iEC12-Pro',
  32: 'iEC12-V',
  26: 'iEC22 series',
  30: 'iEC22-V',
  50: 'iEC1680',
  51: 'iEC1680-V',
  27: 'EC86',
  33: 'EC24',
  34: 'EC86-V',
  35: 'iEC08-V',
  28: 'iEC Press',
  29: 'iEC12-Ta',
  36: 'F0402',
  31: 'control gateway',
  41: 'Smart8c',
  60: 'AI6000',
} as const satisfies Record<number, string>;

export type GatewayTypeKey = keyof typeof GATEWAY_TYPES;

export function isGatewayTypeKey(value: number): value is GatewayTypeKey {
  return Object.hasOwn(GATEWAY_TYPES, value);
}

/** Which kind of device a type key is: controllers, collectors or alarm units. */
export function gatewayKind(key: GatewayTypeKey): 'controller' | 'collector' | 'alarm' {
  if (key === 21) return 'alarm';
  if (key === 31 || key === 28 || key === 36) return 'collector';
  return 'controller';
}

/**
 * Types named by what they are rather than by a model number, in each language (a model name
 * such as "AC2000 PLUS" reads the same in both).
 */
const DESCRIBED_TYPES: Partial<Record<GatewayTypeKey, { en: string; zh: string }>> = {
  21: { en: 'Collector alarm unit', zh: '采集报警器' },
  31: { en: 'Control gateway', zh: '控制网关' },
};

/** A gateway type as the reader's language names it; a key this build does not know as itself. */
export function gatewayTypeName(key: number | null | undefined, locale: string): string {
  if (key === null || key === undefined) return '';
  if (!isGatewayTypeKey(key)) return String(key);
  const described = DESCRIBED_TYPES[key];
  if (described) return locale.startsWith('zh') ? described.zh : described.en;
  return GATEWAY_TYPES[key];
}
