import { useCallback, useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import {
  Button,
  ButtonGroup,
  Classes,
  NonIdealState,
  Tree,
  type TreeNodeInfo,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, TrashIcon, TreeIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { type FarmNode } from '../../contract/admin';
import { type FarmLevel } from '../../contract/domain';
import { PROVINCES, provinceByAdcode } from '../../contract/provinces';
import { useStores } from '../useStores';
import { ConfirmDelete } from './parts/ConfirmDelete';
import { FieldsDialog, numberOrUndefined, type FieldSpec } from './parts/FieldsDialog';
import { notifySuccess, quietly } from './parts/notify';
import { PositionPicker } from './parts/PositionPicker';
import { HousePanel } from './HousePanel';
import './parts/admin.css';

const CHILD_LEVEL: Record<FarmLevel, FarmLevel | null> = {
  group: 'company',
  company: 'farm',
  farm: null,
};

type Editing = { node: FarmNode | null; level: FarmLevel; parentId?: number };

function numberOrNull(text: string | undefined): number | null {
  const n = numberOrUndefined(text);
  return n === undefined || !Number.isFinite(n) ? null : n;
}

function flatten(nodes: FarmNode[]): FarmNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** /system/farm: the tree group → company → farm, and the selected farm's houses. */
export const FarmPage = observer(function FarmPage() {
  const { t, i18n } = useTranslation();
  const { system, session } = useStores();
  const tree = system.farmTree;
  const orgs = system.orgs;
  const [selected, setSelected] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<FarmNode | null>(null);

  const apply = useCallback((data: FarmNode[] | undefined) => {
    if (!data) return;
    // Groups and companies open at first, so the farms show.
    setExpanded((e) =>
      e.size
        ? e
        : new Set(
            flatten(data)
              .filter((n) => n.level !== 'farm')
              .map((n) => n.id),
          ),
    );
  }, []);
  const load = useCallback(
    async () => apply(await quietly(() => system.loadFarmTree())),
    [system, apply],
  );
  useEffect(() => {
    void quietly(() => system.loadFarmTree()).then(apply);
    void quietly(() => system.loadOrgs());
  }, [system, apply]);

  const all = flatten(tree);
  const node = all.find((n) => n.id === selected) ?? null;
  const admin = session.roleKey === 'administrator';

  const toInfo = (n: FarmNode): TreeNodeInfo<number> => ({
    id: n.id,
    // A real button inside the row: Tab reaches it and Enter or Space selects the node (the
    // tree's own rows take no focus). A click on it is also the row's click: both select.
    label: (
      <button
        type="button"
        className="roost-tree-button"
        aria-current={n.id === selected ? 'true' : undefined}
        onClick={() => setSelected(n.id)}
      >
        {n.name}
      </button>
    ),
    secondaryLabel: (
      <span className={Classes.TEXT_MUTED}>
        {n.level === 'farm' ? `${n.houseCount}` : t(`admin.farm.levels.${n.level}`)}
      </span>
    ),
    isSelected: n.id === selected,
    isExpanded: expanded.has(n.id),
    hasCaret: n.children.length > 0,
    childNodes: n.children.map(toInfo),
    nodeData: n.id,
  });
  const toggle = (id: number, open: boolean) =>
    setExpanded((e) => {
      const next = new Set(e);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  const fields = (level: FarmLevel): FieldSpec[] => [
    { key: 'name', label: t('admin.farm.name') },
    { key: 'type', label: t('admin.farm.type') },
    ...(level === 'group'
      ? [
          {
            key: 'orgId',
            label: t('admin.farm.org'),
            options: orgs.map((o) => ({ value: String(o.id), label: o.name })),
          },
        ]
      : []),
    ...(level === 'farm'
      ? [
          {
            key: 'provinceAdcode',
            label: t('admin.farm.province'),
            options: provinceOptions(editing?.node?.provinceAdcode, editing?.node?.provinceName),
          },
          { key: 'longitude', label: t('admin.farm.longitude'), type: 'number' as const },
          { key: 'latitude', label: t('admin.farm.latitude'), type: 'number' as const },
          { key: 'address', label: t('admin.farm.address') },
        ]
      : []),
  ];
  const zh = i18n.language.startsWith('zh');
  const provinceOptions = (adcode?: string | null, name?: string | null) => [
    { value: '', label: t('admin.farm.noProvince') },
    ...PROVINCES.map((p) => ({ value: p.adcode, label: zh ? p.nameZh : p.nameEn })),
    // A province stored before the list (or outside it) stays choosable as it is.
    ...(adcode && !provinceByAdcode(adcode) ? [{ value: adcode, label: name ?? adcode }] : []),
  ];
  /** A chosen province names the farm's province and, while none is set, its position. */
  const deriveFarm = (key: string, values: Record<string, string>) => {
    if (key !== 'provinceAdcode') return values;
    const province = provinceByAdcode(values.provinceAdcode);
    if (!province) {
      const stored = editing?.node;
      const kept = values.provinceAdcode && values.provinceAdcode === stored?.provinceAdcode;
      return { ...values, provinceName: kept ? (stored.provinceName ?? '') : '' };
    }
    const unplaced = !values.longitude?.trim() && !values.latitude?.trim();
    return {
      ...values,
      provinceName: province.nameZh,
      ...(unplaced
        ? { longitude: String(province.center[0]), latitude: String(province.center[1]) }
        : {}),
    };
  };
  const save = async (values: Record<string, string>) => {
    if (!editing) return false;
    const done = await quietly(() =>
      system.saveFarm({
        name: values.name ?? '',
        type: values.type,
        provinceName: values.provinceName,
        address: values.address,
        id: editing.node?.id,
        level: editing.level,
        parentId: editing.parentId,
        orgId: numberOrUndefined(values.orgId),
        provinceAdcode: values.provinceAdcode || undefined,
        longitude: numberOrUndefined(values.longitude) ?? null,
        latitude: numberOrUndefined(values.latitude) ?? null,
      }),
    );
    if (done === undefined) return false;
    notifySuccess(t('admin.common.saved'));
    await load();
    return true;
  };
  const remove = async (n: FarmNode) => {
    setDeleting(null);
    if ((await quietly(() => system.deleteFarm(n.id))) !== undefined) {
      notifySuccess(t('admin.common.deleted'));
      setSelected(null);
    }
    // Also after a failure: a request that timed out may have deleted it all the same.
    await load();
  };
  const child = node ? CHILD_LEVEL[node.level] : null;

  return (
    <div className="roost-page roost-admin" data-testid="page-farm">
      <div className="roost-admin__split">
        <div className="roost-admin__card">
          <div className="roost-admin__bar">
            <ButtonGroup>
              {admin && (
                <Button
                  icon={<AddIcon />}
                  text={t('admin.farm.addGroup')}
                  onClick={() => setEditing({ node: null, level: 'group' })}
                />
              )}
              {node && child && (
                <Button
                  icon={<AddIcon />}
                  text={t('admin.farm.addChild')}
                  onClick={() => setEditing({ node: null, level: child, parentId: node.id })}
                />
              )}
              {node && (
                <Button
                  icon={<EditIcon />}
                  aria-label={t('admin.common.edit')}
                  onClick={() => setEditing({ node, level: node.level })}
                />
              )}
              {node && (
                <Button
                  icon={<TrashIcon />}
                  aria-label={t('admin.common.delete')}
                  onClick={() => setDeleting(node)}
                />
              )}
            </ButtonGroup>
          </div>
          <Tree<number>
            contents={tree.map(toInfo)}
            onNodeClick={(n) => setSelected(n.nodeData ?? null)}
            onNodeExpand={(n) => toggle(n.nodeData!, true)}
            onNodeCollapse={(n) => toggle(n.nodeData!, false)}
          />
        </div>
        {node?.level === 'farm' ? (
          <HousePanel key={node.id} farm={node} onChanged={() => void load()} />
        ) : (
          <div className="roost-admin__card">
            <NonIdealState icon={<TreeIcon size={40} />} description={t('admin.farm.selectFarm')} />
          </div>
        )}
      </div>
      {editing && (
        <FieldsDialog
          title={t(`admin.farm.levels.${editing.level}`)}
          fields={fields(editing.level)}
          initial={{
            name: editing.node?.name ?? '',
            type: editing.node?.type ?? '',
            orgId: String(orgs[0]?.id ?? ''),
            provinceName: editing.node?.provinceName ?? '',
            provinceAdcode: editing.node?.provinceAdcode ?? '',
            longitude: editing.node?.longitude?.toString() ?? '',
            latitude: editing.node?.latitude?.toString() ?? '',
            address: editing.node?.address ?? '',
          }}
          onSave={save}
          onClose={() => setEditing(null)}
          derive={deriveFarm}
          below={(values, change) =>
            editing.level === 'farm' && provinceByAdcode(values.provinceAdcode) ? (
              <PositionPicker
                adcode={values.provinceAdcode!}
                longitude={numberOrNull(values.longitude)}
                latitude={numberOrNull(values.latitude)}
                onPick={(lng, lat) => change({ longitude: String(lng), latitude: String(lat) })}
              />
            ) : null
          }
        />
      )}
      <ConfirmDelete
        name={deleting?.name ?? null}
        remaining={all.length - 1}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
});
