import { FormGroup, HTMLSelect } from '@blueprintjs/core';

export interface ToolbarSelectProps<V extends string> {
  /** The select's id and test id; its label points at it, so a screen reader names it. */
  id: string;
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V) => void;
}

/** A labelled choice in the comparison's toolbar. */
export function ToolbarSelect<V extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: ToolbarSelectProps<V>) {
  return (
    <FormGroup label={label} labelFor={id} style={{ marginBottom: 0 }}>
      <HTMLSelect
        id={id}
        data-testid={id}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value as V)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
