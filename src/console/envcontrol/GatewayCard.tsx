import { Card, H5, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { gatewayTypeName } from '../../contract/gatewayTypes';
import { provinceLabel } from '../../contract/provinces';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { duration, formatTime } from './format';

/** The house's gateway: what it is, whether it is online, and whether its settings are in sync. */
export const GatewayCard = observer(function GatewayCard({ store }: { store: EnvControlStore }) {
  const { t, i18n } = useTranslation();
  const details = store.details;
  if (!details) return null;
  const gw = details.gateway;
  const type = gatewayTypeName(gw?.typeKey, i18n.language);
  const network =
    gw?.network === 'wired' || gw?.network === 'wireless'
      ? t(`envcontrol.gateway.${gw.network}`)
      : '';
  const facts: Array<[string, string]> = [
    [t('envcontrol.gateway.type'), type],
    [t('envcontrol.gateway.version'), gw?.version ?? ''],
    [t('envcontrol.gateway.networkId'), gw?.networkId ?? ''],
    [t('envcontrol.gateway.simCard'), gw?.simCard ?? ''],
    [t('envcontrol.gateway.province'), provinceLabel(details.province, i18n.language)],
    [t('envcontrol.gateway.farm'), details.farmName],
    [t('envcontrol.gateway.breed'), details.breedName ?? '—'],
    [t('envcontrol.gateway.number'), gw?.number ?? ''],
  ];
  return (
    <Card data-testid="envcontrol-gateway">
      <H5>
        {t('envcontrol.gateway.title')}{' '}
        {gw && (
          <Tag intent={gw.online ? Intent.SUCCESS : Intent.NONE} data-testid="envcontrol-online">
            {t(gw.online ? 'envcontrol.gateway.online' : 'envcontrol.gateway.offline')}
            {network && ` · ${network}`}
          </Tag>
        )}
      </H5>
      {!gw ? (
        <p>{t('envcontrol.noGateway')}</p>
      ) : (
        <dl className="roost-envcontrol__facts">
          {facts.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value || '—'}</dd>
            </div>
          ))}
          {gw.onlineSince && (
            <>
              <dt>{t('envcontrol.gateway.state')}</dt>
              <dd>{t('envcontrol.gateway.since', { when: formatTime(gw.onlineSince) })}</dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
});

/** In sync, or how many changes are on their way; when the last one was applied and by whom. */
export const SyncCard = observer(function SyncCard({ store }: { store: EnvControlStore }) {
  const { t } = useTranslation();
  const details = store.details;
  if (!details?.gateway) return null;
  const pending = store.pending.length;
  const last = store.lastApplied;
  return (
    <Card data-testid="envcontrol-sync">
      <H5>{t('envcontrol.sync.title')}</H5>
      <p>
        <Tag
          intent={pending > 0 ? Intent.WARNING : Intent.SUCCESS}
          data-testid="envcontrol-sync-state"
        >
          {pending > 0
            ? t('envcontrol.sync.pending', { count: pending })
            : t('envcontrol.sync.inSync')}
        </Tag>
      </p>
      {last && (
        <p>
          {t('envcontrol.sync.lastApplied', {
            when: formatTime(last.finishedAt),
            who: last.requestedBy,
          })}
        </p>
      )}
      <p className="roost-envcontrol__hint">
        {details.reportedAt
          ? t('envcontrol.sync.reported', { when: formatTime(details.reportedAt) })
          : t('envcontrol.sync.never')}
      </p>
    </Card>
  );
});

/** Online and offline changes of the gateway, newest first, with how long each lasted. */
export const OnlineLogCard = observer(function OnlineLogCard({
  store,
}: {
  store: EnvControlStore;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const rows = store.details?.onlineLog ?? [];
  const now = Date.now();
  return (
    <Card data-testid="envcontrol-online-log">
      <H5>{t('envcontrol.onlineLog.title')}</H5>
      {rows.length === 0 ? (
        <p>{t('envcontrol.onlineLog.none')}</p>
      ) : (
        <HTMLTable compact striped className="roost-envcontrol__table">
          <thead>
            <tr>
              <th>{t('envcontrol.onlineLog.at')}</th>
              <th>{t('envcontrol.onlineLog.state')}</th>
              <th>{t('envcontrol.onlineLog.network')}</th>
              <th>{t('envcontrol.onlineLog.lasted')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 8).map((row, i) => (
              <tr key={row.at + String(i)}>
                <td className="roost-envcontrol__nowrap">{formatTime(row.at)}</td>
                <td>
                  {t(row.online ? 'envcontrol.gateway.online' : 'envcontrol.gateway.offline')}
                </td>
                <td>
                  {row.network === 'wired' || row.network === 'wireless'
                    ? t(`envcontrol.gateway.${row.network}`)
                    : '—'}
                </td>
                <td>{duration(row.at, i === 0 ? now : Date.parse(rows[i - 1]!.at), language)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
});
