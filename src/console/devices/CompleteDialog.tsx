import { useTranslation } from 'react-i18next';
import { maintenanceCompleteSchema, type MaintenancePlan } from '../../contract/devices';
import { FormDialog } from '../forms/FormDialog';
import { TextAreaField } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

export interface CompleteDialogProps {
  /** The plan being completed. */
  plan: MaintenancePlan;
  /** Records the completion with its notes; resolves true when done. */
  onSave(notes: string): Promise<boolean>;
  onClose(): void;
}

/** The completion's fields: the plan is named by the page, not typed. */
const notesSchema = maintenanceCompleteSchema.omit({ id: true });

/** Completing a plan: notes for the history; the server schedules the next. */
export function CompleteDialog({ plan, onSave, onClose }: CompleteDialogProps) {
  const { t } = useTranslation();
  const form = useSchemaForm(notesSchema, { notes: '' });
  const title = t('devices.completeTitle', { content: plan.content });
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={(v) => onSave(v.notes)}
      onClose={onClose}
      confirmName={title}
      className="roost-devices__dialog"
      saveTestId="complete-save"
    >
      <div className="roost-devices__form">
        <TextAreaField
          control={form.control}
          name="notes"
          label={t('devices.field.notes')}
          testId="complete-notes"
        />
      </div>
    </FormDialog>
  );
}
