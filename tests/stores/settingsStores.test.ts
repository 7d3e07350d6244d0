import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmInputInput, AlarmPhoneInput } from '../../src/contract/alarms';
import type { RouteRule } from '../../src/stores/PermissionStore';
import { AlarmSettingsStore } from '../../src/stores/AlarmSettingsStore';
import { KioskLinksStore } from '../../src/stores/KioskLinksStore';
import { PowerStore } from '../../src/stores/PowerStore';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import type { TestStores } from './fakeApi';
import { fetchTo, holdingFirst, storesOn } from './realServer';

/**
 * The alarm settings page's, the kiosk dialog's and the power page's stores on the real app
 * with demo data.
 */
describe.each(testDatabaseTargets())(
  'page stores of alarm settings, kiosk links and power on $name',
  (target) => {
    let t: TestApp;
    let s: TestStores<RouteRule>;
    let fetch: typeof globalThis.fetch;
    let token: string;

    beforeAll(async () => {
      t = await createTestApp(target);
      fetch = await fetchTo(t.app);
      token = await t.signIn('admin');
      s = storesOn(fetch, token);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('loads alarm phones, inputs and places, and saves and deletes a phone', async () => {
      const settings = new AlarmSettingsStore(s.stores.api);
      expect(settings.phones).toBeNull();
      await Promise.all([settings.reload(), settings.loadPlaces()]);
      expect(settings.phones).toEqual(expect.any(Array));
      expect(settings.inputs).toEqual(expect.any(Array));
      expect(settings.places.length).toBeGreaterThan(0);
      const before = settings.phones!.length;

      const farmId = settings.places[0]!.farmId;
      const phone: AlarmPhoneInput = {
        farmId,
        phone: '+86 138 0000 0000',
        period1Start: '08:00',
        period1End: '20:00',
        dateType: 'daily',
        repeatMinutes: 0,
        closable: true,
        alarmType: 'phone',
        delayMinutes: 0,
        status: 'open',
        noticeTypes: ['block'],
      };
      const saved = await settings.savePhone(phone);
      expect(saved).toMatchObject({ farmId, houseId: null, noticeTypes: ['block'] });
      const updated = await settings.savePhone({
        ...phone,
        id: saved.id,
        delayMinutes: 5,
      });
      expect(updated).toMatchObject({ id: saved.id, delayMinutes: 5 });
      await settings.reload();
      expect(settings.phones).toHaveLength(before + 1);

      const left = await settings.remove('alarmPhone', saved.id);
      expect(left.remaining).toEqual(expect.any(Number));
      await settings.reload();
      expect(settings.phones).toHaveLength(before);
      expect(s.errors).toEqual([]);
    });

    it('saves and deletes an alarm input of a gateway', async () => {
      const settings = new AlarmSettingsStore(s.stores.api);
      await settings.loadPlaces();
      const gatewayId = settings.places.find((p) => p.gatewayId !== null)?.gatewayId;
      expect(gatewayId).toEqual(expect.any(Number));
      const input: AlarmInputInput = {
        gatewayId: gatewayId!,
        diCode: `DI-${Date.now() % 100000}`,
        content: 'Door open',
        horn: true,
        shieldTest: false,
        relayType: 'normallyOpen',
        important: true,
      };
      const saved = await settings.saveInput(input);
      expect(saved).toMatchObject({
        gatewayId,
        content: 'Door open',
        networkId: expect.any(String),
      });
      await settings.reload();
      expect(settings.inputs!.map((i) => i.id)).toContain(saved.id);
      await expect(settings.remove('alarmInput', saved.id)).resolves.toEqual({
        remaining: expect.any(Number),
      });
      expect(s.errors).toEqual([]);
    });

    it('lists, creates and revokes kiosk links, with the farms a link may show', async () => {
      const kiosks = new KioskLinksStore(s.stores.api);
      expect(kiosks.links).toBeNull();
      await Promise.all([kiosks.load(), kiosks.loadFarms()]);
      expect(kiosks.links).toEqual([]);
      const names = kiosks.farms.map((f) => f.name);
      expect(names.length).toBeGreaterThan(0);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

      const created = await kiosks.create({
        name: 'Control room',
        allFarms: false,
        farmIds: [kiosks.farms[0]!.farmId],
      });
      expect(created.token).toEqual(expect.any(String));
      expect(kiosks.links!.map((l) => l.id)).toEqual([created.link.id]);
      await kiosks.revoke(created.link.id);
      expect(kiosks.links).toEqual([]);
      expect(s.errors).toEqual([]);
    });

    it("keeps a link just created in the list when the dialog's first, older list answer comes last", async () => {
      // On a slow machine the list the dialog asked for on opening can answer after the one
      // read again behind a create: that older, empty answer must not hide the new link.
      const crossing = holdingFirst(fetch, '/wall/kiosk/list');
      const slow = storesOn(crossing.fetch, token);
      const kiosks = new KioskLinksStore(slow.stores.api);
      const opening = kiosks.load();
      await expect.poll(() => crossing.asked()).toBe(1);
      const created = await kiosks.create({ name: 'Night shift', allFarms: true, farmIds: [] });
      crossing.release();
      await opening;
      expect(kiosks.links!.map((l) => l.id)).toContain(created.link.id);
      await kiosks.revoke(created.link.id);
      expect(slow.errors).toEqual([]);
    });

    it('gives a new link its address while the list read behind it is still held', async () => {
      const crossing = holdingFirst(fetch, '/wall/kiosk/list');
      const slow = storesOn(crossing.fetch, token);
      const kiosks = new KioskLinksStore(slow.stores.api);
      // The list read behind the create is the first one, and it is held: the create answers
      // anyway, with the new link at the head of the list.
      const created = await kiosks.create({ name: 'Day shift', allFarms: true, farmIds: [] });
      expect(kiosks.links!.map((l) => l.id)).toEqual([created.link.id]);
      // The read is under way and held (asked counts it once its answer is in hand).
      await expect.poll(() => crossing.asked()).toBe(1);
      crossing.release();
      await expect.poll(() => kiosks.links!.map((l) => l.id)).toContain(created.link.id);
      await kiosks.revoke(created.link.id);
      expect(slow.errors).toEqual([]);
    });

    it('the power page shows the day chosen last when the day before answers after it', async () => {
      const crossing = holdingFirst(fetch, '/production/power?');
      const slow = storesOn(crossing.fetch, token);
      const power = new PowerStore(slow.stores.api, '2026-11-20');
      // The page's first read (the first farm, that day) is held; the user picks another day.
      const opening = power.loadPlaces();
      await expect.poll(() => crossing.asked()).toBe(1);
      await power.choose(power.target, '2026-11-21');
      crossing.release();
      await opening;
      expect(power.power?.day).toBe('2026-11-21');
      expect(power.month?.month).toBe('2026-11');
      expect(slow.errors).toEqual([]);
    });
  },
);
