import {
  Alert,
  Button,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { KeyIcon, LockIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { modifyPassword } from '../../api/endpoints';
import { isApiError } from '../../api/errors';
import { newPasswordMinLength } from '../../contract/password';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import {
  EMPTY_PASSWORD_FORM,
  validatePasswordField,
  validatePasswordForm,
  type PasswordErrors,
  type PasswordField,
  type PasswordForm,
} from './passwordForm';

export interface ChangePasswordDialogProps {
  /** Whether the dialog is shown. */
  isOpen: boolean;
  /** Called when the dialog should close (cancel, Escape, or a successful change). */
  onClose: () => void;
  /** Called once the dialog has gone (after its closing transition): where focus goes next. */
  onClosed?: () => void;
}

const FIELDS: readonly PasswordField[] = ['oldPassword', 'newPassword', 'confirmPassword'];

/** The change password dialog. */
export const ChangePasswordDialog = observer(function ChangePasswordDialog({
  isOpen,
  onClose,
  onClosed,
}: ChangePasswordDialogProps) {
  const { api, config } = useStores();
  const { t } = useTranslation();
  const [form, setForm] = useState<PasswordForm>(EMPTY_PASSWORD_FORM);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const edition = config.edition;

  /** Opens with a reset form and cleared validation. */
  const handleOpening = () => {
    setForm(EMPTY_PASSWORD_FORM);
    setErrors({});
    setConfirming(false);
    void config.ensureLoaded();
  };

  const handleBlur = (field: PasswordField) => () => {
    setErrors((current) => {
      const next = {
        ...current,
        [field]: validatePasswordField(field, form, edition) ?? undefined,
      };
      // A changed new password may now match (or no longer match) a confirmation already typed.
      if (field === 'newPassword' && form.confirmPassword !== '') {
        next.confirmPassword = validatePasswordField('confirmPassword', form, edition) ?? undefined;
      }
      return next;
    });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordForm(form, edition);
    setErrors(found);
    if (Object.keys(found).length === 0) setConfirming(true);
  };

  const handleConfirm = async () => {
    setConfirming(false);
    setSending(true);
    try {
      await modifyPassword(api, form.oldPassword, form.newPassword);
      showSuccessToast(t('password.success'));
      onClose();
    } catch (error) {
      if (isApiError(error) && !error.shown) {
        showToast({ message: error.message, intent: Intent.DANGER, timeoutMs: NOTIFICATION_MS });
      }
    } finally {
      setSending(false);
    }
  };

  const labels: Record<PasswordField, string> = {
    oldPassword: t('password.oldPassword'),
    newPassword: t('password.newPassword'),
    confirmPassword: t('password.confirmPassword'),
  };

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      onOpening={handleOpening}
      onClosed={onClosed}
      title={t('password.title')}
      icon={<KeyIcon />}
      className="roost-password-dialog"
      canOutsideClickClose={!sending}
    >
      <form onSubmit={handleSubmit} noValidate data-testid="change-password-form">
        <DialogBody>
          {FIELDS.map((field) => {
            const error = errors[field];
            return (
              <FormGroup
                key={field}
                label={labels[field]}
                labelFor={`password-${field}`}
                intent={error ? Intent.DANGER : Intent.NONE}
                helperText={
                  error
                    ? error.params
                      ? t(error.key, error.params)
                      : t(error.key)
                    : field === 'newPassword'
                      ? t('password.rule', { min: newPasswordMinLength(edition) })
                      : undefined
                }
              >
                <InputGroup
                  id={`password-${field}`}
                  name={field}
                  type="password"
                  autoComplete={field === 'oldPassword' ? 'current-password' : 'new-password'}
                  leftIcon={<LockIcon />}
                  intent={error ? Intent.DANGER : Intent.NONE}
                  value={form[field]}
                  onValueChange={(value) => setForm((current) => ({ ...current, [field]: value }))}
                  onBlur={handleBlur(field)}
                  data-testid={`password-${field}`}
                />
              </FormGroup>
            );
          })}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} disabled={sending} />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                text={t('password.submit')}
                loading={sending}
                data-testid="password-submit"
              />
            </>
          }
        />
      </form>
      <Alert
        isOpen={confirming}
        intent={Intent.WARNING}
        icon={<KeyIcon />}
        cancelButtonText={t('common.cancel')}
        confirmButtonText={t('password.confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void handleConfirm()}
        className="roost-password-confirm"
      >
        <p className={Classes.TEXT_LARGE}>
          <strong>{t('password.confirmTitle')}</strong>
        </p>
        <p>{t('password.confirmText')}</p>
      </Alert>
    </Dialog>
  );
});
