import mqtt, { type MqttClient } from 'mqtt';
import { type Page } from 'playwright-core';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { type TestServer } from './harness';

/** Page console errors and uncaught exceptions; a test fails when any is left. */
export function collectErrors(page: Page, ignore: RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() !== 'error' || text.startsWith('Failed to load resource')) return;
    if (ignore.some((pattern) => pattern.test(text))) return;
    errors.push(text);
  });
  return errors;
}

/**
 * How long the first draw may take: SwiftShader draws the map in software, and on the shared
 * 2-core machine under load that alone has taken over 30 s. A wait on an event, so a healthy
 * run does not pay for it.
 */
export const MAP_DRAWN_TIMEOUT_MS = 120_000;

/** Opens the wall and waits until MapLibre loaded and deck.gl drew with the farms (events, not timers). */
export async function openWall(page: Page, url: string, language: '0' | '1' = '1'): Promise<void> {
  await page.goto(`${url}/screenDatav/home?language=${language}`);
  await page
    .locator('[data-testid="wall-map"][data-map-loaded="true"][data-deck-rendered="true"]')
    .waitFor({ timeout: MAP_DRAWN_TIMEOUT_MS });
  await page
    .locator('[data-testid="wall-states"] li[data-farm-id]')
    .first()
    .waitFor({ state: 'attached' });
}

export const farmState = (page: Page, farmId: number) =>
  page
    .locator(`[data-testid="wall-states"] li[data-farm-id="${farmId}"]`)
    .getAttribute('data-state');
export const regionState = (page: Page, region: string) =>
  page
    .locator(`[data-testid="wall-states"] li[data-region="${region}"]`)
    .getAttribute('data-state');

/**
 * Where a longitude/latitude is drawn on the wall's map before any camera move: Web Mercator
 * with MapLibre's 512 px tiles around the camera the map reports after its last move.
 */
export async function pixelOf(
  page: Page,
  lngLat: [number, number],
): Promise<{ x: number; y: number }> {
  const map = page.getByTestId('wall-map');
  const [longitude = 0, latitude = 0, zoom = 0] = ((await map.getAttribute('data-view')) ?? '')
    .split(',')
    .map(Number);
  const view = { longitude, latitude, zoom };
  const box = await map.boundingBox();
  if (!box) throw new Error('no map');
  const world = 512 * 2 ** view.zoom;
  const project = ([lng, lat]: [number, number]) => {
    const phi = (lat * Math.PI) / 180;
    return {
      x: ((lng + 180) / 360) * world,
      y: ((1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2) * world,
    };
  };
  const center = project([view.longitude, view.latitude]);
  const point = project(lngLat);
  return {
    x: box.x + box.width / 2 + point.x - center.x,
    y: box.y + box.height / 2 + point.y - center.y,
  };
}

/**
 * The colour the wall shows at a longitude/latitude, as a person sees it: a screenshot of that
 * pixel (the map's WebGL canvases keep no drawing to read back), decoded in the page.
 */
export async function colourAt(
  page: Page,
  lngLat: [number, number],
): Promise<{ r: number; g: number; b: number }> {
  const { x, y } = await pixelOf(page, lngLat);
  const png = await page.screenshot({
    clip: { x: Math.round(x), y: Math.round(y), width: 1, height: 1 },
  });
  const [r = 0, g = 0, b = 0] = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(1, 1);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    return [...context.getImageData(0, 0, 1, 1).data];
  }, png.toString('base64'));
  return { r, g, b };
}

/**
 * One gateway of a demo house connected over MQTT, its alarm rules without the waiting minute:
 * a reading it publishes raises (or clears) an alarm at once. The caller ends the client.
 */
export async function connectGateway(
  server: TestServer,
): Promise<{ networkId: string; houseId: number; client: MqttClient }> {
  const { database } = server.roost;
  const [row] = await database.query<{ id: number; network_id: string; house_id: number }>(
    `select id, network_id, house_id from gateways order by id desc limit 1`,
  );
  await database.query(
    `insert into alarm_limits (house_id, limits) values ($1, '{"minDurationSeconds":0,"clearHoldSeconds":0}'::jsonb)
     on conflict (house_id) do update set limits = excluded.limits`,
    [row!.house_id],
  );
  const token = `wall-alarms-${row!.id}`;
  await database.query(`update gateways set token_hash = $1 where id = $2`, [
    hashToken(token),
    row!.id,
  ]);
  server.roost.ingest.directory.forget(row!.network_id);
  const client = mqtt.connect(`mqtt://127.0.0.1:${server.roost.mqttPort}`, {
    username: row!.network_id,
    password: token,
    clientId: `wall-alarms-${row!.network_id}`,
    reconnectPeriod: 0,
  });
  disableNagle(client);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return { networkId: row!.network_id, houseId: row!.house_id, client };
}
