import { useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type AssignableOptions, type UserRow, type UserSaveInput } from '../../contract/admin';
import { newPasswordMinLength } from '../../contract/password';
import { type RoleKey } from '../../contract/roles';
import { FormDialog } from '../forms/FormDialog';
import { CheckField, SelectField, TextField } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';
import { useStores } from '../useStores';
import { AssignField } from './parts/AssignField';
import { userFormSchema } from './userForm';

export interface UserDialogProps {
  /** The user edited, or null for a new one. */
  user: UserRow | null;
  options: AssignableOptions;
  /**
   * The organisations an administrator chooses among; absent for other roles, whose users
   * always belong to their own organisation.
   */
  organisations?: ReadonlyArray<{ id: number; name: string }>;
  onSave(input: UserSaveInput): Promise<boolean>;
  onClose(): void;
}

const TEXT_FIELDS = ['realName', 'department', 'position', 'officeTel', 'mobile', 'email'] as const;

/** Create or edit a user, with the assignment its role needs (company, farms or houses). */
export const UserDialog = observer(function UserDialog({
  user,
  options,
  organisations,
  onSave,
  onClose,
}: UserDialogProps) {
  const { t } = useTranslation();
  const { config } = useStores();
  const edition = config.edition;
  const schema = useMemo(() => userFormSchema(edition, user === null), [edition, user]);
  const form = useSchemaForm(schema, {
    username: user?.username ?? '',
    password: '',
    realName: user?.realName ?? '',
    department: user?.department ?? '',
    position: user?.position ?? '',
    officeTel: user?.officeTel ?? '',
    mobile: user?.mobile ?? '',
    email: user?.email ?? '',
    roleKey: (user?.roleKey ??
      options.roles[options.roles.length - 1] ??
      'shack_manager') as RoleKey,
    canOperate: user?.canOperate === '1',
    remoteConfigFlag: user?.remoteConfigFlag === '1',
    scopeNodeId: user?.scopeNodeId ?? options.companies[0]?.id,
    farmIds: user?.farmIds ?? [],
    shackIds: user?.shackIds ?? [],
    orgId: user?.orgId ?? organisations?.[0]?.id,
  });
  const roleKey = useWatch({ control: form.control, name: 'roleKey' });
  const min = newPasswordMinLength(edition);

  return (
    <FormDialog
      title={user ? t('admin.common.edit') : t('admin.user.add')}
      form={form}
      // An edit keeps the stored password (its field is not shown); a user of another role
      // than an administrator's always belongs to the caller's organisation.
      onSave={({ password, orgId, ...rest }) =>
        onSave({
          ...rest,
          ...(organisations && orgId !== undefined ? { orgId } : {}),
          ...(user ? { id: user.id } : { password }),
        })
      }
      onClose={onClose}
      style={{ width: 720, maxWidth: '95vw' }}
      testId="user-form"
    >
      <div className="roost-admin__form">
        <TextField
          control={form.control}
          name="username"
          id="user-username"
          label={t('admin.user.username')}
        />
        {!user && (
          <TextField
            control={form.control}
            name="password"
            type="password"
            id="user-password"
            autoComplete="new-password"
            label={t('admin.user.password')}
            helperText={t('password.rule', { min })}
            errorValues={{ min }}
          />
        )}
        {TEXT_FIELDS.map((key) => (
          <TextField
            key={key}
            control={form.control}
            name={key}
            id={`user-${key}`}
            label={t(`admin.user.${key}`)}
          />
        ))}
        {organisations && (
          <SelectField
            control={form.control}
            name="orgId"
            numeric
            id="user-org"
            label={t('admin.user.org')}
            options={organisations.map((o) => ({ value: o.id, label: o.name }))}
          />
        )}
        <SelectField
          control={form.control}
          name="roleKey"
          id="user-role"
          label={t('admin.user.role')}
          options={options.roles.map((r) => ({ value: r, label: t(`admin.user.roles.${r}`) }))}
        />
        {roleKey === 'company_manager' && (
          <SelectField
            control={form.control}
            name="scopeNodeId"
            numeric
            id="user-company"
            label={t('admin.user.company')}
            options={options.companies.map((c) => ({ value: c.id, label: c.name }))}
          />
        )}
      </div>
      <CheckField
        asSwitch
        control={form.control}
        name="canOperate"
        label={t('admin.user.canOperate')}
      />
      <CheckField
        asSwitch
        control={form.control}
        name="remoteConfigFlag"
        label={t('admin.user.remoteConfig')}
      />
      {(roleKey === 'area_manager' || roleKey === 'farm_manager') && (
        <AssignField
          control={form.control}
          name="farmIds"
          label={t('admin.user.farms')}
          items={options.farms}
        />
      )}
      {roleKey === 'shack_manager' && (
        <AssignField
          control={form.control}
          name="shackIds"
          label={t('admin.user.houses')}
          items={options.houses}
        />
      )}
    </FormDialog>
  );
});
