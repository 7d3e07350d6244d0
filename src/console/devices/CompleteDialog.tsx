import { FormGroup, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MaintenancePlan } from '../../contract/devices';
import { DeviceDialog } from './DeviceDialog';

export interface CompleteDialogProps {
  /** The plan being completed. */
  plan: MaintenancePlan;
  /** Records the completion with its notes; resolves true when done. */
  onSave(notes: string): Promise<boolean>;
  onClose(): void;
}

/** Completing a plan: notes for the history; the server schedules the next. */
export function CompleteDialog({ plan, onSave, onClose }: CompleteDialogProps) {
  const { t } = useTranslation();
  const [notes, setNotes] = useState('');
  return (
    <DeviceDialog
      title={t('devices.completeTitle', { content: plan.content })}
      onSave={() => onSave(notes)}
      onClose={onClose}
      saveTestId="complete-save"
    >
      <FormGroup label={t('devices.field.notes')}>
        <TextArea
          fill
          value={notes}
          data-testid="complete-notes"
          onChange={(e) => setNotes(e.target.value)}
        />
      </FormGroup>
    </DeviceDialog>
  );
}
