import { useTranslation } from 'react-i18next';
import {
  CONCENTRATOR_TYPES,
  concentratorInputSchema,
  type Concentrator,
  type ConcentratorInput,
} from '../../contract/devices';
import { FormDialog } from '../forms/FormDialog';
import { SelectField, TextField, optionsOf } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

export interface ConcentratorDialogProps {
  /** The house the concentrator belongs to. */
  houseId: number;
  /** The concentrator to edit, or null for a new one. */
  concentrator: Concentrator | null;
  onSave(input: ConcentratorInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

const TEXTS = ['code', 'name', 'model', 'address', 'version'] as const;

/** Create or edit a concentrator of a house. */
export function ConcentratorDialog({
  houseId,
  concentrator,
  onSave,
  onClose,
}: ConcentratorDialogProps) {
  const { t } = useTranslation();
  const form = useSchemaForm(concentratorInputSchema, {
    houseId,
    type: concentrator?.type ?? 'controller',
    code: concentrator?.code ?? '',
    name: concentrator?.name ?? '',
    model: concentrator?.model ?? '',
    address: concentrator?.address ?? '',
    version: concentrator?.version ?? '',
  });
  const title = t(concentrator ? 'devices.action.edit' : 'devices.action.add');
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={(v) => onSave(concentrator ? { ...v, id: concentrator.id } : v)}
      onClose={onClose}
      confirmName={concentrator?.name}
      adding={!concentrator}
      className="roost-devices__dialog"
      saveTestId="concentrator-save"
    >
      <div className="roost-devices__form">
        <SelectField
          control={form.control}
          name="type"
          label={t('devices.field.type')}
          options={optionsOf(CONCENTRATOR_TYPES, (x) => t(`devices.concentratorType.${x}`))}
        />
        {TEXTS.map((key) => (
          <TextField
            key={key}
            control={form.control}
            name={key}
            label={t(`devices.field.${key}`)}
            testId={`concentrator-${key}`}
          />
        ))}
      </div>
    </FormDialog>
  );
}
