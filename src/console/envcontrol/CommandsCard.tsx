import { Card, H5, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type CommandState } from '../../contract/envcontrol';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { ScrollRegion } from '../ScrollRegion';
import { commandResult, formatTime, paramLabel, valuesText } from './format';
import { RecordsFilters } from './RecordsFilters';
import { upgradeResult, upgradeValues } from './UpgradeDialog';

const INTENT: Record<CommandState, Intent> = {
  queued: Intent.NONE,
  sent: Intent.PRIMARY,
  applied: Intent.SUCCESS,
  rejected: Intent.DANGER,
  expired: Intent.WARNING,
  superseded: Intent.NONE,
};

/** Every command of the house with its live state: queued → sent → applied or why not. */
export const CommandsCard = observer(function CommandsCard({ store }: { store: EnvControlStore }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const commands = store.details?.commands ?? [];
  return (
    <Card className="roost-envcontrol__wide" data-testid="envcontrol-commands">
      <H5>{t('envcontrol.commands.title')}</H5>
      {commands.length === 0 ? (
        <p>{t('envcontrol.commands.none')}</p>
      ) : (
        <ScrollRegion className="roost-envcontrol__scroll" label={t('envcontrol.commands.title')}>
          <HTMLTable compact striped className="roost-envcontrol__table">
            <thead>
              <tr>
                <th>{t('envcontrol.commands.at')}</th>
                <th>{t('envcontrol.commands.by')}</th>
                <th>{t('envcontrol.commands.values')}</th>
                <th>{t('envcontrol.commands.state')}</th>
                <th>{t('envcontrol.commands.result')}</th>
              </tr>
            </thead>
            <tbody>
              {commands.map((c) => (
                <tr key={c.id} data-testid="command-row" data-state={c.state}>
                  <td className="roost-envcontrol__nowrap">{formatTime(c.createdAt)}</td>
                  <td>{c.requestedBy}</td>
                  <td>
                    {c.kind === 'upgrade'
                      ? upgradeValues(t, c)
                      : c.kind === 'log'
                        ? t('gatewayOps.log.command')
                        : valuesText(c.params, language)}
                  </td>
                  <td>
                    <Tag intent={INTENT[c.state]} data-testid="command-state">
                      {t(`envcontrol.commands.states.${c.state}`)}
                    </Tag>
                  </td>
                  <td data-testid="command-result">
                    {c.kind === 'upgrade'
                      ? upgradeResult(t, c)
                      : c.kind === 'log' && c.state === 'applied'
                        ? t('gatewayOps.log.loaded')
                        : commandResult(t, c, language)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      )}
    </Card>
  );
});

/** Modify records: every parameter change, from the console or at the controller, old → new. */
export const RecordsCard = observer(function RecordsCard({ store }: { store: EnvControlStore }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const rows = store.records;
  const allHouses = store.recordFilters.allHouses;
  return (
    <Card className="roost-envcontrol__wide" data-testid="envcontrol-records">
      <H5>{t('envcontrol.records.title')}</H5>
      <RecordsFilters store={store} />
      {rows.length === 0 ? (
        <p>{t('envcontrol.records.none')}</p>
      ) : (
        <ScrollRegion className="roost-envcontrol__scroll" label={t('envcontrol.records.title')}>
          <HTMLTable compact striped className="roost-envcontrol__table">
            <thead>
              <tr>
                <th>{t('envcontrol.records.at')}</th>
                {allHouses && <th>{t('gatewayOps.records.houseColumn')}</th>}
                <th>{t('envcontrol.records.source')}</th>
                <th>{t('envcontrol.records.operator')}</th>
                <th>{t('envcontrol.records.parameter')}</th>
                <th>{t('envcontrol.records.change')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="record-row" data-source={r.source}>
                  <td className="roost-envcontrol__nowrap">{formatTime(r.at)}</td>
                  {allHouses && <td>{r.houseName}</td>}
                  <td>{t(`envcontrol.records.sources.${r.source}`)}</td>
                  <td>{r.operator || t('envcontrol.records.controller')}</td>
                  <td>{paramLabel(r.key, language)}</td>
                  <td className="roost-envcontrol__nowrap">
                    {r.oldValue ?? '—'} → {r.newValue}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      )}
    </Card>
  );
});
