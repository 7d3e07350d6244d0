import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import type { WallLayout, WallPanelId } from '../src/contract/wallLayout';

/**
 * The wall's panels before the night, the ranking, the open alarms and production came: the
 * wall on which its per-update goal (traced script CPU p95 ≤ 8 ms at 10,000 farms) was set.
 * Measured beside the whole wall in the same run (bench/wallCompare.ts), it tells what the
 * panels cost on this machine today, whatever its speed.
 */
export const GOAL_SET_LAYOUT: WallLayout = {
  left: ['counters', 'today', 'legend'],
  right: ['ticker'],
};

/** `counters,today|ticker`: the left column's panels, then the right's (WallLayout). */
export function parseLayout(text: string): WallLayout {
  const [left = '', right = ''] = text.split('|');
  const ids = (column: string) =>
    column
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean) as WallPanelId[];
  return { left: ids(left), right: ids(right) };
}

/** A new kiosk link of every farm with `layout`, created as the demo's administrator. */
export async function kioskToken(url: string, layout: WallLayout): Promise<string> {
  const post = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { code: number; msg: string; data: { token: string } };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${answer.msg}`);
    return answer.data.token;
  };
  const admin = await post('/login', {
    username: 'admin',
    password: DEMO_PASSWORD,
    codeId: '',
    code: 'x',
  });
  return post(
    '/wall/kiosk/create',
    { name: 'Bench wall', allFarms: true, farmIds: [], layout, tour: null },
    admin,
  );
}
