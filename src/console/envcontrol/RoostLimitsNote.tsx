import { Callout, Switch } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LimitInForce } from '../../contract/alarmLimits';
import { ALARM_CAUSE_NAMES } from '../../contract/alarms';
import { METRIC_BY_KEY } from '../../contract/metrics';
import { measure } from '../../i18n/numbers';
import { LimitsInForceStore } from '../../stores/LimitsInForceStore';
import { useStores } from '../useStores';

/** The causes worth naming beside the controller's alarm limits: the climate ones it also has. */
const SHOWN = [
  'temperatureHigh',
  'temperatureLow',
  'humidityHigh',
  'humidityLow',
  'co2High',
  'nh3High',
];

/**
 * Under the controller's alarm limits: these are the controller's own (it sounds them in the
 * house); Roost raises its alarms and sends notifications at its own, listed with where each
 * comes from, unless the house follows its controller.
 */
export const RoostLimitsNote = observer(function RoostLimitsNote({ houseId }: { houseId: number }) {
  const { t, i18n } = useTranslation();
  const { api, session } = useStores();
  const [store] = useState(() => new LimitsInForceStore(api));
  useEffect(() => {
    void store.load(houseId);
  }, [store, houseId]);
  const answer = store.answer;
  if (!answer || answer.houseId !== houseId) return null;
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const unitOf = (l: LimitInForce) => METRIC_BY_KEY.get(l.metric)?.unit ?? '';
  const basis = (l: LimitInForce) => {
    const unit = unitOf(l);
    if (l.basis === 'breed' && l.target !== null && l.band !== null)
      return t('envcontrol.roostLimits.basis.band', {
        target: measure(Math.round(l.target * 10) / 10, unit),
        sign: l.cause.endsWith('Low') ? '−' : '+',
        band: measure(l.band, unit),
      });
    return t(`envcontrol.roostLimits.basis.${l.basis}`);
  };
  const shown = answer.limits.filter((l) => SHOWN.includes(l.cause));
  return (
    <Callout className="roost-envcontrol__roost-limits" data-testid="roost-limits">
      <p>{t('envcontrol.roostLimits.controllerOwn')}</p>
      <p>{t('envcontrol.roostLimits.roostAt')}</p>
      <ul>
        {shown.map((l) => (
          <li key={l.cause} data-testid={`roost-limit-${l.cause}`}>
            {t('envcontrol.roostLimits.item', { cause: ALARM_CAUSE_NAMES[language][l.cause] })}
            <strong>{measure(Math.round(l.raise * 10) / 10, unitOf(l))}</strong> · {basis(l)}
          </li>
        ))}
      </ul>
      <Switch
        checked={answer.followController}
        disabled={!session.canOperate || store.saving || !answer.controllerReported}
        label={t('envcontrol.roostLimits.follow')}
        onChange={(e) => void store.follow(houseId, e.currentTarget.checked)}
      />
      {!answer.controllerReported && (
        <div className="roost-envcontrol__hint">{t('envcontrol.roostLimits.notReported')}</div>
      )}
    </Callout>
  );
});
