import type { TestApp } from '../helpers/testApp';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A caller of the devices API with a token, answering the envelope. */
export function caller(t: TestApp, token: string, locale = 'en') {
  return async <T = unknown>(method: Method, url: string, body?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api${url}`,
      payload: body,
      headers: { authorization: token, locale },
    });
    const json = res.json<{ success: boolean; msg: string; data: T }>();
    return { status: res.statusCode, ...json };
  };
}

export const concentrator = (houseId: number, code = 'C1') => ({
  houseId,
  type: 'controller',
  code,
  name: `Controller ${code}`,
  model: 'RC-8',
  address: '01',
  version: '2.1',
});

export const terminal = (houseId: number, extra: Partial<Record<string, unknown>> = {}) => ({
  houseId,
  name: 'Dust sensor',
  code: 'D1',
  controlPort: 'fan_1',
  type: 'sensor',
  extras: [
    { code: 'dust', name: 'Dust', unit: 'mg/m³', min: 0, max: 50 },
    { code: 'scale_1', name: 'Scale', unit: 'kg', min: 0, max: 500 },
  ],
  ...extra,
});

/** A demo house with its gateway, by names. */
export async function houseNamed(t: TestApp, farm: string, house: string) {
  const [row] = await t.database.query<{ houseId: number; networkId: string }>(
    `select h.id as "houseId", g.network_id as "networkId"
     from houses h join farms f on f.id = h.farm_id join gateways g on g.house_id = h.id
     where f.name = $1 and h.name = $2`,
    [farm, house],
  );
  if (!row) throw new Error(`no demo house ${house}`);
  return row;
}
