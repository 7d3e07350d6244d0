import { useEffect, useState } from 'react';
import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H5,
  HTMLSelect,
  Intent,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import {
  TARIFF_CURRENCIES,
  TARIFF_PERIODS,
  type TariffCurrency,
  type TariffPeriod,
} from '../../contract/production';
import { TariffStore } from '../../stores/TariffStore';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useConfirmSave } from '../useConfirmSave';
import { useStores } from '../useStores';
import './production.css';

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * /production/tariff: an organisation's time-of-use tariff, as grids bill it: each hour of the
 * day is peak, flat or valley, and each period has its price per kWh. Power costs follow it.
 */
export const TariffPage = observer(function TariffPage() {
  const { t } = useTranslation();
  const { api, session } = useStores();
  const [store] = useState(() => new TariffStore(api));
  const [tried, setTried] = useState(false);
  const confirmSave = useConfirmSave();
  useEffect(() => void store.loadOrgs().catch(() => undefined), [store]);
  const invalid = store.invalidPrices;

  const save = async () => {
    setTried(true);
    if (invalid.length > 0) {
      showToast({
        message: t('production.input.required'),
        intent: Intent.DANGER,
        timeoutMs: NOTIFICATION_MS,
      });
      return;
    }
    try {
      await store.save();
    } catch {
      return;
    }
    showSuccessToast(t('production.tariff.saved'));
  };

  return (
    <div className="roost-production" data-testid="tariff">
      {confirmSave.dialog}
      <div className="roost-production__bar">
        <FormGroup label={t('production.tariff.org')} labelFor="tariff-org">
          <HTMLSelect
            id="tariff-org"
            value={store.orgId ?? ''}
            onChange={(e) => void store.choose(Number(e.target.value)).catch(() => undefined)}
            options={store.orgs.map((o) => ({ value: o.id, label: o.name }))}
          />
        </FormGroup>
      </div>
      {store.saved === false && (
        <Callout
          intent={Intent.WARNING}
          className="roost-production__month"
          data-testid="tariff-unset"
        >
          {t('production.tariff.unset')}
        </Callout>
      )}
      <Card compact className="roost-production__month" data-loaded={store.saved !== null}>
        <H5>{t('production.tariff.prices')}</H5>
        <div className="roost-production__prices">
          <FormGroup label={t('production.tariff.currency')} labelFor="tariff-currency">
            <HTMLSelect
              id="tariff-currency"
              value={store.draft.currency}
              disabled={!session.canOperate || store.saved === null}
              onChange={(e) => store.setCurrency(e.target.value as TariffCurrency)}
              options={[...TARIFF_CURRENCIES]}
            />
          </FormGroup>
          {TARIFF_PERIODS.map((p) => (
            <FormGroup key={p} label={t(`production.power.period.${p}`)} labelFor={`price-${p}`}>
              <input
                id={`price-${p}`}
                className={`${Classes.INPUT} roost-production__cell`}
                type="number"
                inputMode="decimal"
                min={0}
                max={100}
                step={0.01}
                value={store.priceText[p]}
                aria-invalid={tried && invalid.includes(p)}
                onChange={(e) => store.setPrice(p, e.target.value)}
                disabled={!session.canOperate || store.saved === null}
              />
            </FormGroup>
          ))}
        </div>
      </Card>
      <Card compact className="roost-production__month">
        <H5>{t('production.tariff.hours')}</H5>
        <p className={Classes.TEXT_MUTED}>{t('production.tariff.hoursHint')}</p>
        <ol className="roost-production__hours" data-testid="tariff-hours">
          {store.draft.hours.map((period, hour) => (
            <li key={hour} className={`roost-production__hour roost-production__hour--${period}`}>
              <label htmlFor={`hour-${hour}`}>{`${hh(hour)}–${hh(hour + 1)}`}</label>
              <HTMLSelect
                id={`hour-${hour}`}
                fill
                value={period}
                disabled={!session.canOperate || store.saved === null}
                onChange={(e) => store.setHour(hour, e.target.value as TariffPeriod)}
                options={TARIFF_PERIODS.map((p) => ({
                  value: p,
                  label: t(`production.tariff.period.${p}`),
                }))}
              />
            </li>
          ))}
        </ol>
      </Card>
      {session.canOperate && (
        <Button
          intent={Intent.PRIMARY}
          data-testid="save-tariff"
          disabled={store.saved === null}
          onClick={() =>
            invalid.length > 0
              ? void save()
              : confirmSave.ask(
                  () => void save(),
                  store.orgs.find((o) => o.id === store.orgId)?.name,
                )
          }
        >
          {t('production.tariff.save')}
        </Button>
      )}
    </div>
  );
});
