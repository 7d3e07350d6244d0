import { useEffect, useState } from 'react';
import { Button, HTMLSelect, HTMLTable, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { ArrowLeftIcon, CogIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { houseDevicesSummariesSchema, type HouseDevicesSummary } from '../../contract/devices';
import { type House } from '../../stores/HousesStore';
import { ScrollRegion } from '../ScrollRegion';
import { useStores } from '../useStores';
import { HouseDevices } from './HouseDevices';
import { StatusTag } from './StatusTag';
import './devices.css';

/** Each house's device counts and maintenance state, asked once when the list opens. */
function useSummaries(enabled: boolean): Map<number, HouseDevicesSummary> {
  const { api } = useStores();
  const [rows, setRows] = useState(new Map<number, HouseDevicesSummary>());
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    api
      .get('/device/houseSummary', { schema: houseDevicesSummariesSchema })
      .then((r) => !cancelled && setRows(new Map(r.rows.map((s) => [s.houseId, s]))))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [api, enabled]);
  return rows;
}

const HouseRow = observer(function HouseRow({
  house,
  summary,
  onOpen,
}: {
  house: House;
  summary: HouseDevicesSummary | undefined;
  onOpen(): void;
}) {
  const { t } = useTranslation();
  const live = house.live;
  return (
    <tr data-testid={`manage-house-${house.houseId}`}>
      <td>{house.farmName}</td>
      <td>
        <strong>{house.houseName}</strong>
      </td>
      <td>
        {house.networkId ? (
          <span className="roost-devices__nowrap">
            {house.networkId} <StatusTag status={live.online ? 'online' : 'offline'} />
          </span>
        ) : (
          t('devices.manage.noGateway')
        )}
      </td>
      <td>
        {house.ageDays !== null
          ? t('devices.manage.ageDays', { breed: house.breedName ?? '', age: house.ageDays })
          : t('devices.manage.noFlock')}
      </td>
      <td>
        {summary &&
          `${t('devices.manage.concentratorCount', { count: summary.concentrators })} · ${t(
            'devices.manage.terminalCount',
            { count: summary.terminals },
          )}`}
        {summary && summary.faults > 0 && (
          <Tag intent={Intent.DANGER} minimal className="roost-devices__tag">
            {t('devices.manage.faults', { count: summary.faults })}
          </Tag>
        )}
      </td>
      <td>
        {summary && summary.overdue > 0 && (
          <Tag intent={Intent.DANGER} className="roost-devices__tag">
            {t('devices.manage.overdue', { count: summary.overdue })}
          </Tag>
        )}
        {summary && summary.due > 0 && (
          <Tag intent={Intent.WARNING} className="roost-devices__tag">
            {t('devices.manage.due', { count: summary.due })}
          </Tag>
        )}
        {summary && summary.due + summary.overdue === 0 && t('devices.manage.allOk')}
      </td>
      <td>
        <Button
          icon={<CogIcon />}
          text={t('devices.manage.open')}
          onClick={onOpen}
          data-testid={`manage-open-${house.houseId}`}
        />
      </td>
    </tr>
  );
});

/** Shack Manage: the houses in scope with their gateway, flock, devices and maintenance; one house's devices. */
export const HouseManagePage = observer(function HouseManagePage() {
  const { houses } = useStores();
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('houseId'));
  const houseId = Number.isInteger(raw) && raw > 0 ? raw : null;
  const house = houseId === null ? undefined : houses.get(houseId);
  const summaries = useSummaries(houseId === null);
  return (
    <div className="roost-page roost-devices" data-testid="page-houseManage">
      <div className="roost-houses-toolbar">
        {houseId !== null && (
          <Button
            icon={<ArrowLeftIcon />}
            text={t('devices.manage.back')}
            onClick={() => setParams({})}
          />
        )}
        <HTMLSelect
          aria-label={t('devices.manage.house')}
          value={houseId ?? ''}
          data-testid="manage-picker"
          onChange={(e) =>
            setParams(e.currentTarget.value ? { houseId: e.currentTarget.value } : {})
          }
        >
          <option value="">{t('devices.manage.houses')}</option>
          {houses.byName.map((h) => (
            <option key={h.houseId} value={h.houseId}>
              {h.farmName} / {h.houseName}
            </option>
          ))}
        </HTMLSelect>
        {house && <strong data-testid="manage-title">{house.houseName}</strong>}
      </div>
      {houseId === null ? (
        <ScrollRegion className="roost-devices__scroll" label={t('devices.manage.houses')}>
          <HTMLTable className="roost-devices__table" compact striped data-testid="manage-houses">
            <thead>
              <tr>
                {(['farm', 'house', 'gateway', 'flock', 'devices', 'maintenance'] as const).map(
                  (k) => (
                    <th key={k}>{t(`devices.manage.${k}`)}</th>
                  ),
                )}
                <th />
              </tr>
            </thead>
            <tbody>
              {houses.byName.map((h) => (
                <HouseRow
                  key={h.houseId}
                  house={h}
                  summary={summaries.get(h.houseId)}
                  onOpen={() => setParams({ houseId: String(h.houseId) })}
                />
              ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      ) : house ? (
        <HouseDevices key={house.houseId} house={house} />
      ) : (
        <NonIdealState title={t('devices.manage.pick')} />
      )}
    </div>
  );
});
