import { Callout, Card, H5, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PARAM_GROUPS, type ParamIssue, type ParamSpec } from '../../contract/envcontrol';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { paramValue } from './format';
import { RoostLimitsNote } from './RoostLimitsNote';

/** The controller's parameters by group: current values, and new ones for who may send. */
export const ParamsCard = observer(function ParamsCard({ store }: { store: EnvControlStore }) {
  const { t } = useTranslation();
  const details = store.details;
  if (!details?.gateway) return null;
  const specs = store.specs;
  return (
    <div className="roost-envcontrol__wide" data-testid="envcontrol-params">
      <H5>{t('envcontrol.params.title')}</H5>
      {!details.canSend && (
        <Callout
          intent={Intent.PRIMARY}
          data-testid="envcontrol-readonly"
          style={{ marginBottom: 12 }}
        >
          {t('envcontrol.params.readOnly')}
        </Callout>
      )}
      <div className="roost-envcontrol__groups">
        {PARAM_GROUPS.filter((g) => details.groups.includes(g)).map((group) => (
          <Card key={group} compact>
            <H5>{t(`envcontrol.params.group.${group}`)}</H5>
            <HTMLTable compact className="roost-envcontrol__table">
              <thead>
                <tr>
                  <th />
                  <th>{t('envcontrol.params.current')}</th>
                  {details.canSend && <th>{t('envcontrol.params.next')}</th>}
                </tr>
              </thead>
              <tbody>
                {specs
                  .filter((s) => s.group === group)
                  .map((spec) => (
                    <ParamRow key={spec.key} store={store} spec={spec} editable={details.canSend} />
                  ))}
              </tbody>
            </HTMLTable>
            {group === 'alarmLimits' && <RoostLimitsNote houseId={details.houseId} />}
          </Card>
        ))}
      </div>
    </div>
  );
});

const ParamRow = observer(function ParamRow({
  store,
  spec,
  editable,
}: {
  store: EnvControlStore;
  spec: ParamSpec;
  editable: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const current = store.details?.params[spec.key];
  const draft = store.draft[spec.key];
  const issue = store.issues[spec.key];
  const label = spec.label[language];
  return (
    <tr data-testid={`param-${spec.key}`}>
      <td>
        {label}
        <div className="roost-envcontrol__hint">
          {t('envcontrol.params.range', {
            min: spec.min,
            max: spec.max,
            unit: spec.unit ? ` ${spec.unit}` : '',
            step: spec.step,
          })}
        </div>
      </td>
      <td className="roost-envcontrol__nowrap" data-testid={`param-${spec.key}-current`}>
        {paramValue(spec.key, current)}
      </td>
      {editable && (
        <td>
          <InputGroup
            className="roost-envcontrol__input"
            small
            inputMode="decimal"
            aria-label={`${label} · ${t('envcontrol.params.next')}`}
            intent={issue ? Intent.DANGER : Intent.NONE}
            value={draft ?? ''}
            placeholder={current === undefined ? '' : String(current)}
            onValueChange={(value) => store.edit(spec.key, value)}
          />
          {issue && <div className="roost-envcontrol__error">{issueText(t, issue, spec)}</div>}
        </td>
      )}
    </tr>
  );
});

function issueText(t: TFunction, issue: ParamIssue, spec: ParamSpec): string {
  switch (issue.message) {
    case 'range':
      return t('envcontrol.params.outOfRange', { min: spec.min, max: spec.max });
    case 'step':
      return t('envcontrol.params.step', { step: spec.step });
    default:
      return t('envcontrol.params.empty');
  }
}
