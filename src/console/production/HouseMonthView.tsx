import { Card, Classes, H5 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { type HouseMonth } from '../../contract/production';

export interface HouseMonthViewProps {
  month: HouseMonth;
  houseName: string;
  /** Opens that day in the grid. */
  onPick: (day: string) => void;
}

/** A house's month at a glance: each day entered, missing or without a flock. */
export function HouseMonthView({ month, houseName, onPick }: HouseMonthViewProps) {
  const { t } = useTranslation();
  const missing = month.days.filter((d) => d.missing).length;
  return (
    <Card className="roost-production__month" data-testid="house-month">
      <H5>{t('production.input.month', { house: houseName })}</H5>
      <p className={Classes.TEXT_MUTED} data-testid="missing-count">
        {missing === 0
          ? t('production.input.noneMissing')
          : t('production.input.missingCount', { count: missing })}
      </p>
      <ol className="roost-production__days">
        {month.days.map((d) => {
          const state = d.record ? 'entered' : d.missing ? 'missing' : 'none';
          const label =
            state === 'entered'
              ? t('production.input.entered')
              : state === 'missing'
                ? t('production.input.missing')
                : '';
          return (
            <li key={d.day}>
              <button
                type="button"
                className={`roost-production__day roost-production__day--${state}`}
                data-day={d.day}
                data-state={state}
                aria-label={`${d.day} ${label}`}
                title={
                  d.ageDay === null ? label : `${label} · ${t('production.input.age')} ${d.ageDay}`
                }
                onClick={() => onPick(d.day)}
              >
                {Number(d.day.slice(8))}
              </button>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
