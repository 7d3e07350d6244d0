import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  CONCENTRATOR_TYPES,
  type Concentrator,
  type ConcentratorInput,
} from '../../contract/devices';
import { Choice, DeviceDialog, useForm } from './DeviceDialog';

export interface ConcentratorDialogProps {
  /** The house the concentrator belongs to. */
  houseId: number;
  /** The concentrator to edit, or null for a new one. */
  concentrator: Concentrator | null;
  onSave(input: ConcentratorInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

/** Create or edit a concentrator of a house. */
export function ConcentratorDialog({
  houseId,
  concentrator,
  onSave,
  onClose,
}: ConcentratorDialogProps) {
  const { t } = useTranslation();
  const [v, set] = useForm<ConcentratorInput>(() => ({
    houseId,
    type: concentrator?.type ?? 'controller',
    code: concentrator?.code ?? '',
    name: concentrator?.name ?? '',
    model: concentrator?.model ?? '',
    address: concentrator?.address ?? '',
    version: concentrator?.version ?? '',
  }));
  const text = (key: 'code' | 'name' | 'model' | 'address' | 'version') => (
    <FormGroup label={t(`devices.field.${key}`)}>
      <InputGroup
        value={v[key] ?? ''}
        data-testid={`concentrator-${key}`}
        onValueChange={(x) => set({ [key]: x })}
      />
    </FormGroup>
  );
  return (
    <DeviceDialog
      title={t(concentrator ? 'devices.action.edit' : 'devices.action.add')}
      onSave={() => onSave(concentrator ? { ...v, id: concentrator.id } : v)}
      onClose={onClose}
      saveTestId="concentrator-save"
    >
      <Choice
        label={t('devices.field.type')}
        value={v.type}
        choices={CONCENTRATOR_TYPES}
        text={(x) => t(`devices.concentratorType.${x}`)}
        onChange={(type) => set({ type })}
      />
      {text('code')}
      {text('name')}
      {text('model')}
      {text('address')}
      {text('version')}
    </DeviceDialog>
  );
}
