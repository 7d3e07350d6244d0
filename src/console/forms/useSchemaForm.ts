import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { type z } from 'zod';

/**
 * What zod says about a value when the contract's schema gives no message of its own: a key of
 * `forms.error` (zod's own texts are English only). A schema's message (`admin.codeRequired`)
 * wins over this, as zod ranks a schema's message above the one given to the parse.
 */
export function issueKey(issue: z.core.$ZodRawIssue): string {
  if (issue.input === undefined || issue.input === null) return 'forms.error.required';
  if (issue.code === 'too_small' && issue.origin === 'string') return 'forms.error.required';
  if (issue.code === 'too_big' && issue.origin === 'string') return 'forms.error.tooLong';
  return 'forms.error.invalid';
}

export interface SchemaFormOptions {
  /**
   * When a field is first checked: on save (the default), or also when the person leaves it
   * (`onTouched`: a form whose rules are not obvious, as a new password's). Either way a field
   * showing a problem is checked again as it is typed in.
   */
  mode?: 'onSubmit' | 'onTouched';
}

/**
 * A console form over one of the contract's schemas (react-hook-form with zodResolver): the
 * console checks what the server will check, with the same schema, and shows each problem at
 * its field before anything is sent. The submitted values are the schema's output (trimmed,
 * defaults filled), which the server parses again. The schema may change while the form is
 * open (one made for the edition once it is known): each check uses the latest.
 */
export function useSchemaForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  defaultValues: DefaultValues<z.input<S>>,
  { mode = 'onSubmit' }: SchemaFormOptions = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema, { error: issueKey }),
    defaultValues,
    mode,
    reValidateMode: 'onChange',
  });
}
