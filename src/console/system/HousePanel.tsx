import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Alert, Button, ButtonGroup, Callout, Classes, HTMLTable, Intent } from '@blueprintjs/core';
import {
  AddIcon,
  CellTowerIcon,
  EditIcon,
  KeyIcon,
  RefreshIcon,
  StopIcon,
  TrashIcon,
} from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { type FarmNode, type GatewayTokenResult, type HouseRow } from '../../contract/admin';
import { GATEWAY_TYPES, gatewayTypeName } from '../../contract/gatewayTypes';
import { useStores } from '../useStores';
import { ConfirmDelete } from './parts/ConfirmDelete';
import { EnrolCodeButton } from './parts/EnrolCode';
import { FieldsDialog, numberOrUndefined, type FieldSpec } from './parts/FieldsDialog';
import { notifySuccess, quietly } from './parts/notify';
import { formatDate } from '../../i18n/dates';
import { grouped } from '../../i18n/numbers';

export interface HousePanelProps {
  /** The farm whose houses are shown. */
  farm: FarmNode;
  /** After a change that alters the tree's house counts. */
  onChanged(): void;
}

type Editing =
  | { kind: 'house'; house: HouseRow | null }
  | { kind: 'gateway'; house: HouseRow }
  | { kind: 'flock'; house: HouseRow }
  | { kind: 'close'; house: HouseRow };

/** Today in the browser's calendar (toISOString gave the UTC day: yesterday before 08:00 in China). */
const today = () => formatDate(new Date());

/** The houses of one farm with gateway (token shown once, rotatable) and flock. */
export const HousePanel = observer(function HousePanel({ farm, onChanged }: HousePanelProps) {
  const { t, i18n } = useTranslation();
  const { system, session } = useStores();
  // Gateways, their tokens and flocks are operating actions (README "Roles and the operation
  // permission"): a user without the permission sees them but is offered none.
  const operate = session.canOperate;
  const rows = system.housesOf(farm.id);
  const breeds = system.breedChoices;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<HouseRow | null>(null);
  const [rotating, setRotating] = useState<HouseRow | null>(null);
  const [token, setToken] = useState<GatewayTokenResult | null>(null);

  const load = () => quietly(() => system.loadHouses(farm.id));
  useEffect(() => {
    void quietly(() => system.loadHouses(farm.id));
    void quietly(() => system.loadBreedChoices());
  }, [system, farm.id]);

  const run = async (action: () => Promise<unknown>) => {
    const result = await quietly(action);
    if (result === undefined) return false;
    notifySuccess(t('admin.common.saved'));
    await load();
    onChanged();
    return true;
  };

  const dialog = (): {
    title: string;
    fields: FieldSpec[];
    initial: Record<string, string>;
    save(v: Record<string, string>): Promise<boolean>;
  } | null => {
    if (!editing) return null;
    const h = editing.house;
    if (editing.kind === 'house')
      return {
        title: h ? t('admin.common.edit') : t('admin.house.add'),
        fields: [
          { key: 'name', label: t('admin.house.name') },
          { key: 'sort', label: t('admin.house.sort'), type: 'number' },
        ],
        initial: { name: h?.name ?? '', sort: String(h?.sort ?? rows.length + 1) },
        save: (v) =>
          run(() =>
            system.saveHouse({
              id: h?.id,
              farmId: farm.id,
              name: v.name ?? '',
              sort: numberOrUndefined(v.sort),
            }),
          ),
      };
    if (editing.kind === 'gateway') {
      const g = editing.house.gateway;
      return {
        title: `${t('admin.house.gateway')} · ${editing.house.name}`,
        fields: [
          { key: 'networkId', label: t('admin.house.networkId') },
          {
            key: 'typeKey',
            label: t('admin.house.gatewayType'),
            options: Object.keys(GATEWAY_TYPES).map((k) => ({
              value: k,
              label: `${k} ${gatewayTypeName(Number(k), i18n.language)}`,
            })),
          },
          { key: 'version', label: t('admin.house.version') },
          { key: 'simCard', label: t('admin.house.simCard') },
          { key: 'number', label: t('admin.house.number') },
          { key: 'intervalSeconds', label: t('admin.house.interval'), type: 'number' },
        ],
        initial: {
          networkId: g?.networkId ?? '',
          typeKey: String(g?.typeKey ?? 11),
          version: g?.version ?? '',
          simCard: g?.simCard ?? '',
          number: g?.number ?? '',
          intervalSeconds: String(g?.intervalSeconds ?? 60),
        },
        save: async (v) => {
          const result = await quietly(() =>
            system.saveGateway({
              networkId: v.networkId ?? '',
              number: v.number,
              version: v.version,
              simCard: v.simCard,
              id: g?.id,
              houseId: editing.house.id,
              typeKey: Number(v.typeKey),
              intervalSeconds: numberOrUndefined(v.intervalSeconds),
            }),
          );
          if (!result) return false;
          if ('token' in result) setToken(result);
          else notifySuccess(t('admin.common.saved'));
          await load();
          return true;
        },
      };
    }
    if (editing.kind === 'flock')
      return {
        title: `${t('admin.house.startFlock')} · ${editing.house.name}`,
        fields: [
          {
            key: 'breedId',
            label: t('admin.house.breed'),
            options: breeds.map((b) => ({ value: String(b.id), label: b.name })),
          },
          { key: 'placedOn', label: t('admin.house.placedOn'), type: 'date' },
          { key: 'headCount', label: t('admin.house.headCount'), type: 'number' },
          { key: 'ageAtPlacement', label: t('admin.house.ageAtPlacement'), type: 'number' },
        ],
        initial: {
          breedId: String(breeds[0]?.id ?? ''),
          placedOn: today(),
          headCount: '',
          ageAtPlacement: '1',
        },
        save: (v) =>
          run(() =>
            system.startFlock({
              houseId: editing.house.id,
              breedId: numberOrUndefined(v.breedId),
              placedOn: v.placedOn ?? '',
              headCount: numberOrUndefined(v.headCount),
              ageAtPlacement: numberOrUndefined(v.ageAtPlacement),
            }),
          ),
      };
    return {
      title: `${t('admin.house.closeFlock')} · ${editing.house.name}`,
      fields: [{ key: 'closedOn', label: t('admin.house.closedOn'), type: 'date' }],
      initial: { closedOn: today() },
      save: (v) =>
        run(() => system.closeFlock({ houseId: editing.house.id, closedOn: v.closedOn ?? '' })),
    };
  };
  const open = dialog();

  const rotate = async (house: HouseRow) => {
    setRotating(null);
    const result = await quietly(() => system.rotateToken(house.gateway!.id));
    if (result) setToken(result);
  };
  const remove = async (house: HouseRow) => {
    setDeleting(null);
    await run(() => system.deleteHouse(house.id));
  };

  return (
    <div className="roost-admin__card" data-testid="house-panel">
      <div className="roost-admin__bar">
        <h3 className={Classes.HEADING}>
          {farm.name} · {t('admin.farm.houses')}
        </h3>
        <Button
          icon={<AddIcon />}
          text={t('admin.house.add')}
          onClick={() => setEditing({ kind: 'house', house: null })}
        />
      </div>
      <HTMLTable className="roost-admin__table roost-admin__table--actions" compact striped>
        <thead>
          <tr>
            <th>{t('admin.house.name')}</th>
            <th>{t('admin.house.gateway')}</th>
            <th>{t('admin.house.simCard')}</th>
            <th>{t('admin.house.flock')}</th>
            <th>{t('admin.common.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((h) => (
            <tr key={h.id} data-testid={`house-${h.name}`}>
              <td>{h.name}</td>
              {/* Two lines a cell (network id over type and version, breed over placement and
                  head count), so the whole row fits beside the farm tree at 1440 px and nothing
                  hides behind the sticky actions. */}
              <td>
                {h.gateway && (
                  <>
                    <div title={t('admin.house.version')}>
                      {h.gateway.networkId} · {h.gateway.version}
                    </div>
                    <div className={Classes.TEXT_MUTED}>
                      {h.gateway.typeKey} {gatewayTypeName(h.gateway.typeKey, i18n.language)}
                    </div>
                  </>
                )}
              </td>
              <td>{h.gateway?.simCard ?? ''}</td>
              <td>
                {h.flock ? (
                  <>
                    <div>{h.flock.breedName}</div>
                    <div className={Classes.TEXT_MUTED}>
                      {h.flock.placedOn} · {t('admin.house.headCount')}{' '}
                      {grouped(h.flock.headCount, i18n.language)}
                    </div>
                  </>
                ) : (
                  <span className={Classes.TEXT_MUTED}>{t('admin.house.noFlock')}</span>
                )}
              </td>
              <td>
                <ButtonGroup variant="minimal">
                  <Button
                    icon={<EditIcon />}
                    aria-label={t('admin.common.edit')}
                    onClick={() => setEditing({ kind: 'house', house: h })}
                  />
                  {operate && (
                    <Button
                      icon={h.gateway ? <CellTowerIcon /> : <AddIcon />}
                      aria-label={
                        h.gateway ? t('admin.house.gateway') : t('admin.house.addGateway')
                      }
                      title={h.gateway ? t('admin.house.gateway') : t('admin.house.addGateway')}
                      onClick={() => setEditing({ kind: 'gateway', house: h })}
                    />
                  )}
                  {operate && h.gateway && (
                    <Button
                      icon={<KeyIcon />}
                      aria-label={t('admin.house.rotate')}
                      title={t('admin.house.rotate')}
                      onClick={() => setRotating(h)}
                    />
                  )}
                  {operate && h.gateway && (
                    <EnrolCodeButton
                      gatewayId={h.gateway.id}
                      houseName={h.name}
                      make={(id) => system.enrolCode(id)}
                    />
                  )}
                  {operate && h.flock && (
                    <Button
                      icon={<StopIcon />}
                      aria-label={t('admin.house.closeFlock')}
                      title={t('admin.house.closeFlock')}
                      onClick={() => setEditing({ kind: 'close', house: h })}
                    />
                  )}
                  {operate && !h.flock && (
                    <Button
                      icon={<RefreshIcon />}
                      aria-label={t('admin.house.startFlock')}
                      title={t('admin.house.startFlock')}
                      onClick={() => setEditing({ kind: 'flock', house: h })}
                    />
                  )}
                  <Button
                    icon={<TrashIcon />}
                    intent={Intent.DANGER}
                    aria-label={t('admin.common.delete')}
                    onClick={() => setDeleting(h)}
                  />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {open && (
        <FieldsDialog
          title={open.title}
          fields={open.fields}
          initial={open.initial}
          onSave={open.save}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDelete
        name={deleting?.name ?? null}
        remaining={rows.length - 1}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
      <Alert
        isOpen={rotating !== null}
        intent={Intent.WARNING}
        confirmButtonText={t('admin.house.rotate')}
        cancelButtonText={t('admin.common.cancel')}
        onConfirm={() => rotating && void rotate(rotating)}
        onCancel={() => setRotating(null)}
      >
        <p>{t('admin.house.rotateConfirm', { networkId: rotating?.gateway?.networkId ?? '' })}</p>
      </Alert>
      <Alert
        isOpen={token !== null}
        confirmButtonText={t('admin.common.close')}
        onConfirm={() => setToken(null)}
      >
        <h4 className={Classes.HEADING}>
          {t('admin.house.tokenTitle', { networkId: token?.networkId ?? '' })}
        </h4>
        <Callout intent={Intent.WARNING}>{t('admin.house.tokenOnce')}</Callout>
        <p className="roost-admin__token" data-testid="gateway-token">
          {token?.token}
        </p>
      </Alert>
    </div>
  );
});
