import { HTMLSelect } from '@blueprintjs/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface AddHouseSelectProps {
  id: string;
  options: ReadonlyArray<{ houseId: number; houseName: string; farmName: string }>;
  onAdd: (houseId: number) => void;
}

/**
 * Picks a house to add to the comparison. A mouse pick adds at once; arrowing or typing
 * through the closed list (which changes a select's value in Chrome) only moves the choice,
 * and Enter adds it, so a keyboard user does not add every house passed over.
 */
export function AddHouseSelect({ id, options, onAdd }: AddHouseSelectProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState('');
  const browsing = useRef(false);
  const add = (value: string) => {
    setPending('');
    if (value) onAdd(Number(value));
  };
  return (
    <HTMLSelect
      id={id}
      value={pending}
      data-testid="compare-add"
      aria-description={t('houses.compare.addHint')}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          add(pending);
        } else if (event.key !== 'Tab') {
          browsing.current = true;
        }
      }}
      onBlur={() => {
        browsing.current = false;
      }}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (browsing.current) setPending(value);
        else add(value);
        browsing.current = false;
      }}
    >
      <option value="">{t('houses.compare.addHouse')}</option>
      {options.map((h) => (
        <option key={h.houseId} value={h.houseId}>
          {h.farmName} / {h.houseName}
        </option>
      ))}
    </HTMLSelect>
  );
}
