import { useState, type ReactElement, type ReactNode } from 'react';
import {
  Checkbox,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
  NumericInput,
  Switch,
  TextArea,
} from '@blueprintjs/core';
import {
  useController,
  type Control,
  type FieldError,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DateInput } from './DateInput';
import { TimeInput } from './TimeInput';

/**
 * A field's problem in the user's language. The message is an i18n key: a contract schema's
 * own (`admin.codeRequired`) or a `forms.error` one (useSchemaForm); a key the console has no
 * text for reads as the general "not valid".
 */
export function useErrorText(): (
  error: FieldError | undefined,
  values?: Record<string, unknown>,
) => string | undefined {
  const { t, i18n } = useTranslation();
  // The key comes from a schema at run time, so it is checked with exists() rather than typed.
  const byKey = t as unknown as (key: string, values?: Record<string, unknown>) => string;
  return (error, values) => {
    if (!error) return undefined;
    const key = error.message ?? '';
    return i18n.exists(key) ? byKey(key, values) : t('forms.error.invalid');
  };
}

interface FieldProps<T extends FieldValues> {
  // The form's control; its output type does not matter to a field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, unknown, any>;
  name: FieldPath<T>;
  label: string;
  /** The input's id, for the label (tests find admin fields by it). */
  id?: string;
  testId?: string;
  /** Said under the field while it has no problem. */
  helperText?: ReactNode;
  /**
   * The numbers a problem's text names: a schema's message is a bare key, and the rule behind
   * it (a password's length in this edition) is known to the form, not to the message.
   */
  errorValues?: Record<string, unknown>;
  /** After a change by the person (a field that fills others). */
  onChanged?(): void;
  /**
   * In a row of fields (a list's entry): no label or problem text around it; the label is read
   * out and shown in the empty box, and the row says the problem.
   */
  bare?: boolean;
}

/** A labelled field: its problem under it in red, else its helper text. */
function Group<T extends FieldValues>({
  props,
  error,
  children,
}: {
  props: FieldProps<T>;
  error: FieldError | undefined;
  children: ReactNode;
}) {
  const errorText = useErrorText();
  const problem = errorText(error, props.errorValues);
  if (props.bare) return <>{children}</>;
  return (
    <FormGroup
      label={props.label}
      labelFor={props.id}
      intent={problem ? Intent.DANGER : Intent.NONE}
      helperText={problem ?? props.helperText}
    >
      {children}
    </FormGroup>
  );
}

export interface TextFieldProps<T extends FieldValues> extends FieldProps<T> {
  type?: 'text' | 'number' | 'password';
  maxLength?: number;
  placeholder?: string;
  autoComplete?: string;
  /** An icon at the box's start (a lock on a password). */
  leftIcon?: ReactElement;
}

/** A one-line text field. */
export function TextField<T extends FieldValues>(props: TextFieldProps<T>) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  return (
    <Group props={props} error={fieldState.error}>
      <InputGroup
        id={props.id}
        name={field.name}
        type={props.type ?? 'text'}
        maxLength={props.maxLength}
        placeholder={props.bare ? props.label : props.placeholder}
        aria-label={props.bare ? props.label : undefined}
        autoComplete={props.autoComplete}
        leftIcon={props.leftIcon}
        intent={fieldState.error ? Intent.DANGER : Intent.NONE}
        value={(field.value as string | undefined) ?? ''}
        data-testid={props.testId}
        inputRef={field.ref}
        onValueChange={(value) => {
          field.onChange(value);
          props.onChanged?.();
        }}
        onBlur={field.onBlur}
      />
    </Group>
  );
}

/** A text of several lines. */
export function TextAreaField<T extends FieldValues>(props: FieldProps<T>) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  return (
    <Group props={props} error={fieldState.error}>
      <TextArea
        id={props.id}
        name={field.name}
        fill
        intent={fieldState.error ? Intent.DANGER : Intent.NONE}
        value={(field.value as string | undefined) ?? ''}
        data-testid={props.testId}
        inputRef={field.ref}
        onChange={(e) => {
          field.onChange(e.target.value);
          props.onChanged?.();
        }}
        onBlur={field.onBlur}
      />
    </Group>
  );
}

export interface SelectFieldProps<T extends FieldValues> extends FieldProps<T> {
  /** The choices' values (as the form holds them) and texts, in the order shown. */
  options: ReadonlyArray<{ value: string | number; label: string }>;
  /** The form holds the choice as a number (an id), the select as text. */
  numeric?: boolean;
  /** The text of a first choice that holds null (no device, no concentrator); none: no such choice. */
  emptyOption?: string;
}

/** A select over a fixed list (a contract's value list, the choices of a page). */
export function SelectField<T extends FieldValues>(props: SelectFieldProps<T>) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  return (
    <Group props={props} error={fieldState.error}>
      <HTMLSelect
        id={props.id}
        name={field.name}
        fill
        value={String((field.value as string | number | null | undefined) ?? '')}
        data-testid={props.testId}
        onChange={(e) => {
          const value = e.target.value;
          if (props.emptyOption !== undefined && value === '') field.onChange(null);
          else field.onChange(props.numeric ? Number(value) : value);
          props.onChanged?.();
        }}
        onBlur={field.onBlur}
      >
        {props.emptyOption !== undefined && <option value="">{props.emptyOption}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </HTMLSelect>
    </Group>
  );
}

export interface TypedFieldProps<T extends FieldValues> extends FieldProps<T> {
  /** The form holds null while nothing is given (a schema's nullable date or time), not ''. */
  nullable?: boolean;
}

/** What a box typed in a form of its own takes (DateInput, TimeInput). */
interface TypedInputProps {
  id?: string;
  name?: string;
  value: string;
  onChange(value: string): void;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A form's field over one of those boxes: one shape for the date and the time field. */
function typedField(Input: (props: TypedInputProps) => ReactNode) {
  return function TypedField<T extends FieldValues>(props: TypedFieldProps<T>) {
    const { field, fieldState } = useController({ control: props.control, name: props.name });
    return (
      <Group props={props} error={fieldState.error}>
        <Input
          id={props.id}
          name={field.name}
          aria-label={props.bare ? props.label : undefined}
          value={(field.value as string | null | undefined) ?? ''}
          data-testid={props.testId}
          onChange={(value) => {
            field.onChange(props.nullable && value === '' ? null : value);
            props.onChanged?.();
          }}
        />
      </Group>
    );
  };
}

/** A date typed or picked, held as YYYY-MM-DD ('' or null while none). */
export const DateField = typedField(DateInput);

/** A time of day on the 24-hour clock, held as HH:MM ('' or null while none). */
export const TimeField = typedField(TimeInput);

export interface CheckListFieldProps<T extends FieldValues> extends FieldProps<T> {
  /** The values that may be in the list, each with its text, in the order shown. */
  options: ReadonlyArray<{ value: string; label: string }>;
}

/** A list of values chosen by ticking boxes (one per possible value, inline). */
export function CheckListField<T extends FieldValues>(props: CheckListFieldProps<T>) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const chosen = (field.value as string[] | undefined) ?? [];
  return (
    <Group props={props} error={fieldState.error}>
      {props.options.map((o) => (
        <Checkbox
          key={o.value}
          inline
          label={o.label}
          checked={chosen.includes(o.value)}
          onChange={() => {
            field.onChange(
              chosen.includes(o.value) ? chosen.filter((x) => x !== o.value) : [...chosen, o.value],
            );
            props.onChanged?.();
          }}
        />
      ))}
    </Group>
  );
}

export interface NumberFieldProps<T extends FieldValues> extends FieldProps<T> {
  min?: number;
  max?: number;
}

/**
 * A number, held as a number, or null while the box is empty or not a number (the schema then
 * says what is wrong). What is typed is kept as typed ("-", "1.") until it reads as a number.
 */
export function NumberField<T extends FieldValues>(props: NumberFieldProps<T>) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const held = field.value as number | null | undefined;
  const [typed, setTyped] = useState(held == null ? '' : String(held));
  return (
    <Group props={props} error={fieldState.error}>
      <NumericInput
        id={props.id}
        name={field.name}
        fill={!props.bare}
        min={props.min}
        max={props.max}
        buttonPosition={props.bare ? 'none' : undefined}
        aria-label={props.bare ? props.label : undefined}
        placeholder={props.bare ? props.label : undefined}
        intent={fieldState.error ? Intent.DANGER : Intent.NONE}
        value={typed}
        data-testid={props.testId}
        inputRef={field.ref}
        onValueChange={(n, text) => {
          setTyped(text);
          field.onChange(text.trim() !== '' && Number.isFinite(n) ? n : null);
          props.onChanged?.();
        }}
        onBlur={field.onBlur}
      />
    </Group>
  );
}

export interface CheckFieldProps<T extends FieldValues> extends Omit<FieldProps<T>, 'helperText'> {
  /** A switch, on its own line (a right the person has or not), rather than an inline box. */
  asSwitch?: boolean;
}

/** A yes/no box, inline (several in one row under one group), or a switch. */
export function CheckField<T extends FieldValues>(props: CheckFieldProps<T>) {
  const { field } = useController({ control: props.control, name: props.name });
  const Box = props.asSwitch ? Switch : Checkbox;
  return (
    <Box
      inline={!props.asSwitch}
      id={props.id}
      name={field.name}
      label={props.label}
      checked={Boolean(field.value)}
      data-testid={props.testId}
      inputRef={field.ref}
      onChange={(e) => {
        field.onChange(e.currentTarget.checked);
        props.onChanged?.();
      }}
      onBlur={field.onBlur}
    />
  );
}

/** The choices of a contract value list, each with its text in the user's language. */
export function optionsOf<V extends string>(
  values: readonly V[],
  text: (value: V) => string,
): Array<{ value: V; label: string }> {
  return values.map((value) => ({ value, label: text(value) }));
}
