import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrgRow } from '../../src/contract/admin';
import { ListActions, type ListChange } from '../../src/console/listActions';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { fetchTo, storesOn } from '../stores/realServer';

const unique = () =>
  `L${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const codes = (rows: readonly OrgRow[]) => rows.map((r) => r.code);

/**
 * The actions every list page shares (src/console/listActions.ts), on the organisation list of
 * the real app, signed in as its administrator: what the user is told is recorded.
 */
describe.each(testDatabaseTargets())("a list page's actions on $name", (target) => {
  let t: TestApp;
  let s: ReturnType<typeof storesOn>;

  beforeAll(async () => {
    t = await createTestApp(target);
    s = storesOn(await fetchTo(t.app), await t.signIn('admin'));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The organisation page's list and actions, read once; its notices and deletes recorded. */
  async function orgPage() {
    const { system } = s.stores;
    const list = system.orgList({ keyword: '' });
    const notices: ListChange[] = [];
    const deleted: OrgRow[] = [];
    const actions = new ListActions<OrgRow>(list, (change) => notices.push(change), {
      remove: (org) => system.deleteOrg(org.id),
      nameOf: (org) => org.name,
      onDeleted: (org) => deleted.push(org),
    });
    await actions.search();
    return { system, list, notices, deleted, actions };
  }

  /** A new organisation, stored behind the page's back. */
  async function newOrg() {
    const code = unique();
    return s.stores.system.saveOrg({ name: `List ${code}`, code });
  }

  it('searches page 1 with the filters on Enter in a filter field, and on no other key', async () => {
    const org = await newOrg();
    const { list, actions } = await orgPage();
    expect(list.total).toBeGreaterThan(1);
    await list.load(2);
    list.setFilter('keyword', org.code);
    for (const key of ['a', 'Tab', 'Escape']) await actions.searchOnEnter({ key });
    expect(list.page).toBe(2);
    expect(list.rows).toEqual([]);

    await actions.searchOnEnter({ key: 'Enter' });
    expect(list.page).toBe(1);
    expect(codes(list.rows)).toEqual([org.code]);
  });

  it('says "saved" and reads the page again after a save; a refused one keeps the dialog', async () => {
    const { system, list, notices, actions } = await orgPage();
    const code = unique();
    actions.edit('new');
    expect(actions.editing).toBe('new');
    expect(await actions.save(() => system.saveOrg({ name: `Saved ${code}`, code }))).toBe(true);
    expect(notices).toEqual(['saved']);
    expect(codes(list.rows)).toContain(code);

    const errors = s.errors.length;
    // The server refuses an organisation without a name or code: the dialog stays open.
    expect(await actions.save(() => system.saveOrg({ name: ' ', code: '' }))).toBe(false);
    expect(notices).toEqual(['saved']);
    expect(s.errors).toHaveLength(errors + 1);
    actions.closeEdit();
    expect(actions.editing).toBeNull();
  });

  it('deletes only after the confirmation, then says "deleted" and reads the page again', async () => {
    const org = await newOrg();
    const { list, notices, deleted, actions } = await orgPage();
    const row = list.rows.find((r) => r.id === org.id)!;
    const total = list.total;

    actions.askDelete(row);
    expect(actions.deleting).toBe(row);
    actions.cancelDelete();
    expect(actions.deleting).toBeNull();
    await actions.confirmDelete();
    expect(codes(list.rows)).toContain(org.code);

    actions.askDelete(row);
    await actions.confirmDelete();
    expect(actions.deleting).toBeNull();
    expect(notices).toEqual(['deleted']);
    expect(deleted).toEqual([row]);
    expect(codes(list.rows)).not.toContain(org.code);
    expect(list.total).toBe(total - 1);
  });

  it('reads the page again after a delete that failed: the row may be gone all the same', async () => {
    const org = await newOrg();
    const { system, list, notices, deleted, actions } = await orgPage();
    const row = list.rows.find((r) => r.id === org.id)!;
    // Gone before the page's own delete reaches the server (another console deleted it).
    await system.deleteOrg(org.id);
    const errors = s.errors.length;

    actions.askDelete(row);
    await actions.confirmDelete();
    expect(s.errors).toHaveLength(errors + 1);
    expect(notices).toEqual([]);
    expect(deleted).toEqual([]);
    expect(codes(list.rows)).not.toContain(org.code);
  });
});
