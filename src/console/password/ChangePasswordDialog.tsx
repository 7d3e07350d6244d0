import { Intent } from '@blueprintjs/core';
import { KeyIcon, LockIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { modifyPassword } from '../../api/endpoints';
import { isApiError } from '../../api/errors';
import { newPasswordMinLength } from '../../contract/password';
import { FormDialog } from '../forms/FormDialog';
import { TextField } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import { EMPTY_PASSWORD_FORM, passwordFormSchema, type PasswordForm } from './passwordForm';

export interface ChangePasswordDialogProps {
  /** Whether the dialog is shown. */
  isOpen: boolean;
  /** Called when the dialog should close (cancel, Escape, or a successful change). */
  onClose: () => void;
  /** Called once the dialog has gone (after its closing transition): where focus goes next. */
  onClosed?: () => void;
}

const FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const satisfies ReadonlyArray<
  keyof PasswordForm
>;

/**
 * The change password dialog. Its rules are not obvious (the edition's length, three kinds of
 * character), so each field is checked as soon as it is left, not only on save.
 */
export const ChangePasswordDialog = observer(function ChangePasswordDialog({
  isOpen,
  onClose,
  onClosed,
}: ChangePasswordDialogProps) {
  const { api, config } = useStores();
  const { t } = useTranslation();
  const edition = config.edition;
  const schema = useMemo(() => passwordFormSchema(edition), [edition]);
  const form = useSchemaForm(schema, EMPTY_PASSWORD_FORM, { mode: 'onTouched' });
  const min = newPasswordMinLength(edition);

  const change = async ({ oldPassword, newPassword }: PasswordForm) => {
    try {
      await modifyPassword(api, oldPassword, newPassword);
      showSuccessToast(t('password.success'));
      return true;
    } catch (error) {
      if (isApiError(error) && !error.shown) {
        showToast({ message: error.message, intent: Intent.DANGER, timeoutMs: NOTIFICATION_MS });
      }
      return false;
    }
  };

  return (
    <FormDialog
      isOpen={isOpen}
      title={t('password.title')}
      icon={<KeyIcon />}
      form={form}
      onSave={change}
      onClose={onClose}
      // Opened again: an empty form without messages.
      onOpening={() => {
        form.reset(EMPTY_PASSWORD_FORM);
        void config.ensureLoaded();
      }}
      onClosed={onClosed}
      question={{
        title: t('password.confirmTitle'),
        text: t('password.confirmText'),
        confirm: t('password.confirm'),
        icon: <KeyIcon />,
        intent: Intent.WARNING,
        className: 'roost-password-confirm',
      }}
      className="roost-password-dialog"
      saveText={t('password.submit')}
      saveTestId="password-submit"
      testId="change-password-form"
    >
      {FIELDS.map((field) => (
        <TextField
          key={field}
          control={form.control}
          name={field}
          type="password"
          id={`password-${field}`}
          testId={`password-${field}`}
          label={t(`password.${field}`)}
          autoComplete={field === 'oldPassword' ? 'current-password' : 'new-password'}
          leftIcon={<LockIcon />}
          errorValues={{ min }}
          helperText={field === 'newPassword' ? t('password.rule', { min }) : undefined}
          // A changed new password may now match (or no longer match) a confirmation typed.
          onChanged={
            field === 'newPassword'
              ? () => {
                  if (form.getValues('confirmPassword') !== '')
                    void form.trigger('confirmPassword');
                }
              : undefined
          }
        />
      ))}
    </FormDialog>
  );
});
