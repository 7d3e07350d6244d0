import { useState } from 'react';
import { Checkbox, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../forms/fields';

/** Up to this many farms or houses are listed without a filter box. */
const CHOICES_WITHOUT_FILTER = 8;

export interface AssignFieldProps<T extends FieldValues> {
  // The form's control; its output type does not matter to a field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, unknown, any>;
  /** The list of ids (a user's farms or houses); also names its test ids (`assign-farmIds`). */
  name: FieldPath<T>;
  label: string;
  items: ReadonlyArray<{ id: number; name: string }>;
}

/**
 * The farms or houses a user looks after, ticked in a list held as their ids. A long list (a
 * house manager among hundreds of houses) gets a filter, and the label says how many are chosen.
 */
export function AssignField<T extends FieldValues>({
  control,
  name,
  label,
  items,
}: AssignFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const errorText = useErrorText();
  const problem = errorText(fieldState.error);
  const chosen = (field.value as number[] | undefined) ?? [];
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? items.filter((i) => i.name.toLowerCase().includes(needle)) : items;
  const toggle = (id: number) =>
    field.onChange(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  return (
    <FormGroup
      label={label}
      labelInfo={
        <span data-testid={`assign-${name}-count`}>
          {t('admin.user.chosen', { chosen: chosen.length, total: items.length })}
        </span>
      }
      intent={problem ? Intent.DANGER : Intent.NONE}
      helperText={problem}
    >
      {items.length > CHOICES_WITHOUT_FILTER && (
        <InputGroup
          small
          leftIcon={<SearchIcon />}
          placeholder={t('admin.user.filterChoices')}
          aria-label={t('admin.user.filterChoices')}
          value={filter}
          onValueChange={setFilter}
          data-testid={`assign-${name}-filter`}
          style={{ marginBottom: 4 }}
        />
      )}
      <div className="roost-admin__checks" data-testid={`assign-${name}`}>
        {shown.map((item) => (
          <Checkbox
            key={item.id}
            label={item.name}
            checked={chosen.includes(item.id)}
            onChange={() => toggle(item.id)}
          />
        ))}
      </div>
    </FormGroup>
  );
}
