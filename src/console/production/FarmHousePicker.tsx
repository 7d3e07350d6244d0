import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type AlarmPlace } from '../../contract/alarms';

/**
 * What a Daily Business page is about: a farm (the day grid), a house (a flock), or either (power:
 * `farm:3` or `house:12`). One picker for the three pages, fed by the places of the scope.
 */
export type PickKind = 'farm' | 'house' | 'farmOrHouse';

export interface FarmHousePickerProps {
  id: string;
  label: string;
  pick: PickKind;
  places: readonly AlarmPlace[];
  /** A farm id, a house id, or `farm:ID` / `house:ID`, as a string ('' for none yet). */
  value: string;
  onChange: (value: string) => void;
}

export function FarmHousePicker({
  id,
  label,
  pick,
  places,
  value,
  onChange,
}: FarmHousePickerProps) {
  const { t } = useTranslation();
  const farms = useMemo(() => [...new Map(places.map((p) => [p.farmId, p.farmName]))], [places]);
  return (
    <FormGroup label={label} labelFor={id}>
      {pick === 'farm' ? (
        <HTMLSelect
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          options={farms.map(([farmId, name]) => ({ value: farmId, label: name }))}
        />
      ) : pick === 'house' ? (
        <HTMLSelect
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          options={places.map((p) => ({
            value: p.houseId,
            label: `${p.farmName} · ${p.houseName}`,
          }))}
        />
      ) : (
        <HTMLSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {farms.map(([farmId, farmName]) => (
            <optgroup key={farmId} label={farmName}>
              <option value={`farm:${farmId}`}>
                {`${farmName} · ${t('production.power.allHouses')}`}
              </option>
              {places
                .filter((p) => p.farmId === farmId)
                .map((p) => (
                  <option key={p.houseId} value={`house:${p.houseId}`}>
                    {`${farmName} · ${p.houseName}`}
                  </option>
                ))}
            </optgroup>
          ))}
        </HTMLSelect>
      )}
    </FormGroup>
  );
}
