import { Alert, Intent } from '@blueprintjs/core';
import { TrashIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteProps {
  /** What is about to be deleted; null closes the dialog. */
  name: string | null;
  /** How many rows remain after the delete (the confirm shows it). */
  remaining: number;
  onConfirm(): void;
  onCancel(): void;
}

/** The "delete permanently" confirmation, with the count of rows that remain. */
export function ConfirmDelete({ name, remaining, onConfirm, onCancel }: ConfirmDeleteProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={name !== null}
      intent={Intent.DANGER}
      icon={<TrashIcon />}
      confirmButtonText={t('admin.common.delete')}
      cancelButtonText={t('admin.common.cancel')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      canEscapeKeyCancel
    >
      <p data-testid="confirm-delete">
        {t('admin.common.confirmDelete', { name: name ?? '', remaining: Math.max(0, remaining) })}
      </p>
    </Alert>
  );
}
