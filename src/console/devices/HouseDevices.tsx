import { useEffect, useState, type ReactElement } from 'react';
import {
  Alert,
  Button,
  ButtonGroup,
  Classes,
  HTMLTable,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, SearchIcon, TickIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/dates';
import { grouped } from '../../i18n/numbers';
import { type Concentrator, type MaintenancePlan, type Terminal } from '../../contract/devices';
import { DevicesStore, type DeviceResource } from '../../stores/DevicesStore';
import { type House } from '../../stores/HousesStore';
import { ArrowKeyTabs } from '../ArrowKeyTabs';
import { ScrollRegion } from '../ScrollRegion';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { CamerasPanel } from './CamerasPanel';
import { CompleteDialog } from './CompleteDialog';
import { ConcentratorDialog } from './ConcentratorDialog';
import { PlanDialog } from './PlanDialog';
import { PlanStateTag, StatusTag } from './StatusTag';
import { TerminalDialog } from './TerminalDialog';

type Editing<T> = T | 'new' | null;

/** How long the search box waits for typing to pause before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** One house's devices: concentrators, terminal devices, maintenance plans and history. */
export const HouseDevices = observer(function HouseDevices({ house }: { house: House }) {
  const { t, i18n } = useTranslation();
  const { api, session } = useStores();
  const [store] = useState(() => new DevicesStore(api));
  const [cEdit, setCEdit] = useState<Editing<Concentrator>>(null);
  const [dEdit, setDEdit] = useState<Editing<Terminal>>(null);
  const [pEdit, setPEdit] = useState<Editing<MaintenancePlan>>(null);
  const [completing, setCompleting] = useState<MaintenancePlan | null>(null);
  const [deleting, setDeleting] = useState<{
    resource: DeviceResource;
    id: number;
    name: string;
    remaining: number;
  } | null>(null);
  const operate = session.canOperate;
  const live = house.live;
  const houseId = house.houseId;

  useEffect(() => void store.open(houseId).catch(() => undefined), [store, houseId]);
  useEffect(() => {
    const timer = setTimeout(() => void store.reload().catch(() => undefined), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [store, store.search]);

  const save = async (write: () => Promise<unknown>, message = t('devices.saved')) => {
    try {
      await write();
    } catch {
      return false;
    }
    showSuccessToast(message);
    await store.reload().catch(() => undefined);
    return true;
  };
  const remove = async () => {
    if (!deleting) return;
    setDeleting(null);
    try {
      const r = await store.remove(deleting.resource, deleting.id);
      showSuccessToast(t('devices.deleted', { remaining: r.remaining }));
    } catch {
      return;
    }
    await store.reload().catch(() => undefined);
  };
  const actions = (name: string, onEdit: () => void, onDelete: () => void, extra?: ReactElement) =>
    operate && (
      <ButtonGroup variant="minimal">
        {extra}
        <Button
          icon={<EditIcon />}
          aria-label={`${t('devices.action.edit')} ${name}`}
          onClick={onEdit}
        />
        <Button
          icon={<TrashIcon />}
          intent={Intent.DANGER}
          aria-label={`${t('devices.action.delete')} ${name}`}
          onClick={onDelete}
        />
      </ButtonGroup>
    );
  const head = (keys: string[]) => (
    <thead>
      <tr>
        {keys.map((k) => (
          <th key={k}>{t(`devices.field.${k}` as 'devices.field.name')}</th>
        ))}
      </tr>
    </thead>
  );
  const emptyRow = (list: unknown[] | null, cols: number) =>
    (list === null || list.length === 0) && (
      <tr>
        <td colSpan={cols} className={Classes.TEXT_MUTED}>
          {t(list === null ? 'devices.loading' : 'devices.empty')}
        </td>
      </tr>
    );
  const addButton = (onClick: () => void, testId: string) =>
    operate && (
      <Button
        className="roost-devices__add"
        icon={<AddIcon />}
        text={t('devices.action.add')}
        onClick={onClick}
        data-testid={testId}
      />
    );
  const concentrators = store.concentrators;
  const terminals = store.terminals;
  const plans = store.plans;

  const concentratorTable = (
    <div>
      {addButton(() => setCEdit('new'), 'concentrator-add')}
      <ScrollRegion className="roost-devices__scroll" label={t('devices.tabs.concentrators')}>
        <HTMLTable
          className="roost-devices__table"
          compact
          striped
          data-testid="concentrator-table"
        >
          {head([
            'type',
            'code',
            'name',
            'model',
            'address',
            'version',
            'devices',
            'status',
            'actions',
          ])}
          <tbody>
            {(concentrators ?? []).map((c) => (
              <tr key={c.id} data-testid={`concentrator-${c.code}`}>
                <td>{t(`devices.concentratorType.${c.type}`)}</td>
                <td>{c.code}</td>
                <td>{c.name}</td>
                <td>{c.model}</td>
                <td>{c.address}</td>
                <td>{c.version}</td>
                <td>{c.devices}</td>
                <td>
                  <StatusTag status={store.concentratorStatus(c, live)} />
                </td>
                <td>
                  {actions(
                    c.name,
                    () => setCEdit(c),
                    () =>
                      setDeleting({
                        resource: 'concentrator',
                        id: c.id,
                        name: c.name,
                        remaining: (concentrators ?? []).length - 1,
                      }),
                  )}
                </td>
              </tr>
            ))}
            {emptyRow(concentrators, 9)}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </div>
  );

  const terminalTable = (
    <div>
      {addButton(() => setDEdit('new'), 'terminal-add')}
      <ScrollRegion className="roost-devices__scroll" label={t('devices.tabs.terminals')}>
        <HTMLTable className="roost-devices__table" compact striped data-testid="terminal-table">
          {head([
            'name',
            'code',
            'type',
            'concentrator',
            'controlPort',
            'model',
            'extras',
            'runHours',
            'status',
            'actions',
          ])}
          <tbody>
            {(terminals ?? []).map((d) => (
              <tr key={d.id} data-testid={`terminal-${d.code}`}>
                <td>{d.name}</td>
                <td>{d.code}</td>
                <td>{t(`devices.terminalType.${d.type}`)}</td>
                <td>{d.concentratorName ?? ''}</td>
                <td>{d.controlPort}</td>
                <td>{d.model}</td>
                <td>
                  {d.extras.map((e) => `${e.name}${e.unit ? ` (${e.unit})` : ''}`).join(', ')}
                </td>
                <td>{d.controlPort ? grouped(d.runHours, i18n.language) : ''}</td>
                <td>
                  <StatusTag status={store.terminalStatus(d, live)} />
                </td>
                <td>
                  {actions(
                    d.name,
                    () => setDEdit(d),
                    () =>
                      setDeleting({
                        resource: 'terminal',
                        id: d.id,
                        name: d.name,
                        remaining: (terminals ?? []).length - 1,
                      }),
                  )}
                </td>
              </tr>
            ))}
            {emptyRow(terminals, 10)}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </div>
  );

  const planTable = (
    <div>
      {addButton(() => setPEdit('new'), 'plan-add')}
      <ScrollRegion className="roost-devices__scroll" label={t('devices.tabs.plans')}>
        <HTMLTable className="roost-devices__table" compact striped data-testid="plan-table">
          {head([
            'type',
            'device',
            'content',
            'plannedDate',
            'interval',
            'runHours',
            'state',
            'actions',
          ])}
          <tbody>
            {(plans ?? []).map((p) => (
              <tr key={p.id} data-testid={`plan-${p.id}`}>
                <td>{t(`devices.planType.${p.type}`)}</td>
                <td>{p.deviceName ?? t('devices.field.wholeHouse')}</td>
                <td title={p.description}>{p.content}</td>
                <td className="roost-devices__nowrap">{p.plannedDate ?? ''}</td>
                <td>
                  {p.interval === null
                    ? ''
                    : t(`devices.intervalUnit.${p.type}`, { count: p.interval })}
                </td>
                <td>
                  {p.runHours === null
                    ? ''
                    : t('devices.runHoursOf', { hours: p.runHours, interval: p.interval ?? 0 })}
                </td>
                <td>
                  <PlanStateTag state={p.state} />
                </td>
                <td>
                  {actions(
                    p.content,
                    () => setPEdit(p),
                    () =>
                      setDeleting({
                        resource: 'maintenance',
                        id: p.id,
                        name: p.content,
                        remaining: (plans ?? []).length - 1,
                      }),
                    <Button
                      icon={<TickIcon />}
                      intent={Intent.SUCCESS}
                      aria-label={`${t('devices.action.complete')} ${p.content}`}
                      data-testid={`plan-complete-${p.id}`}
                      onClick={() => setCompleting(p)}
                    />,
                  )}
                </td>
              </tr>
            ))}
            {emptyRow(plans, 8)}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </div>
  );

  const historyTable = (
    <ScrollRegion className="roost-devices__scroll" label={t('devices.tabs.history')}>
      <HTMLTable className="roost-devices__table" compact striped data-testid="history-table">
        {head(['doneAt', 'type', 'device', 'content', 'doneBy', 'notes'])}
        <tbody>
          {(store.history ?? []).map((h) => (
            <tr key={h.id}>
              <td className="roost-devices__nowrap">{formatDateTime(h.doneAt)}</td>
              <td>{t(`devices.planType.${h.type}`)}</td>
              <td>{h.deviceName ?? t('devices.field.wholeHouse')}</td>
              <td>{h.content}</td>
              <td>{h.doneBy}</td>
              <td>{h.notes}</td>
            </tr>
          ))}
          {emptyRow(store.history, 6)}
        </tbody>
      </HTMLTable>
    </ScrollRegion>
  );

  return (
    <div className="roost-devices__house">
      <InputGroup
        className="roost-devices__search"
        leftIcon={<SearchIcon />}
        placeholder={t('devices.manage.search')}
        aria-label={t('devices.manage.search')}
        value={store.search}
        data-testid="device-search"
        onValueChange={(x) => store.setSearch(x)}
      />
      <ArrowKeyTabs
        id="house-devices"
        tabs={[
          { id: 'terminals', title: t('devices.tabs.terminals'), panel: terminalTable },
          { id: 'concentrators', title: t('devices.tabs.concentrators'), panel: concentratorTable },
          { id: 'plans', title: t('devices.tabs.plans'), panel: planTable },
          { id: 'history', title: t('devices.tabs.history'), panel: historyTable },
          {
            id: 'cameras',
            title: t('devices.tabs.cameras'),
            panel: <CamerasPanel houseId={houseId} operate={operate} />,
          },
        ]}
      />
      {cEdit && (
        <ConcentratorDialog
          houseId={houseId}
          concentrator={cEdit === 'new' ? null : cEdit}
          onSave={(b) => save(() => store.saveConcentrator(b))}
          onClose={() => setCEdit(null)}
        />
      )}
      {dEdit && (
        <TerminalDialog
          houseId={houseId}
          device={dEdit === 'new' ? null : dEdit}
          concentrators={concentrators ?? []}
          onSave={(b) => save(() => store.saveTerminal(b))}
          onClose={() => setDEdit(null)}
        />
      )}
      {pEdit && (
        <PlanDialog
          houseId={houseId}
          plan={pEdit === 'new' ? null : pEdit}
          devices={terminals ?? []}
          onSave={(b) => save(() => store.savePlan(b))}
          onClose={() => setPEdit(null)}
        />
      )}
      {completing && (
        <CompleteDialog
          plan={completing}
          onSave={(notes) =>
            save(() => store.complete(completing.id, notes), t('devices.completed'))
          }
          onClose={() => setCompleting(null)}
        />
      )}
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon={<TrashIcon />}
        confirmButtonText={t('devices.action.delete')}
        cancelButtonText={t('devices.action.cancel')}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p data-testid="confirm-delete">
          {t('devices.confirmDelete', {
            name: deleting?.name ?? '',
            remaining: Math.max(0, deleting?.remaining ?? 0),
          })}
        </p>
      </Alert>
    </div>
  );
});
