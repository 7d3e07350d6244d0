import { useState } from 'react';
import {
  Button,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
  Switch,
} from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useConfirmSave } from '../useConfirmSave';
import { type AssignableOptions, type UserRow, type UserSaveInput } from '../../contract/admin';
import { type RoleKey } from '../../contract/roles';

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

/** Up to this many farms or houses are listed without a filter box. */
const CHOICES_WITHOUT_FILTER = 8;

/** Create or edit a user, with the assignment its role needs (company, farms or houses). */
export function UserDialog({ user, options, organisations, onSave, onClose }: UserDialogProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const [form, setForm] = useState(() => ({
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
  }));
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const toggle = (key: 'farmIds' | 'shackIds', id: number) =>
    set(key, form[key].includes(id) ? form[key].filter((x) => x !== id) : [...form[key], id]);

  const submit = async () => {
    setBusy(true);
    const { password, orgId, ...rest } = form;
    const saved = await onSave({
      ...rest,
      ...(organisations && orgId !== undefined ? { orgId } : {}),
      ...(user ? { id: user.id } : { password }),
    });
    setBusy(false);
    if (saved) onClose();
  };

  // Long lists (a house manager among hundreds of houses): a filter, and how many are chosen.
  const [filter, setFilter] = useState('');
  const choices = (
    key: 'farmIds' | 'shackIds',
    label: string,
    items: Array<{ id: number; name: string }>,
  ) => {
    const needle = filter.trim().toLowerCase();
    const shown = needle ? items.filter((i) => i.name.toLowerCase().includes(needle)) : items;
    return (
      <FormGroup
        label={label}
        labelInfo={
          <span data-testid={`assign-${key}-count`}>
            {t('admin.user.chosen', { chosen: form[key].length, total: items.length })}
          </span>
        }
      >
        {items.length > CHOICES_WITHOUT_FILTER && (
          <InputGroup
            small
            leftIcon={<SearchIcon />}
            placeholder={t('admin.user.filterChoices')}
            aria-label={t('admin.user.filterChoices')}
            value={filter}
            onValueChange={setFilter}
            data-testid={`assign-${key}-filter`}
            style={{ marginBottom: 4 }}
          />
        )}
        <div className="roost-admin__checks" data-testid={`assign-${key}`}>
          {shown.map((item) => (
            <Checkbox
              key={item.id}
              label={item.name}
              checked={form[key].includes(item.id)}
              onChange={() => toggle(key, item.id)}
            />
          ))}
        </div>
      </FormGroup>
    );
  };

  return (
    <Dialog
      isOpen
      title={user ? t('admin.common.edit') : t('admin.user.add')}
      onClose={onClose}
      style={{ width: 720, maxWidth: '95vw' }}
    >
      <DialogBody>
        <div className="roost-admin__form">
          <FormGroup label={t('admin.user.username')} labelFor="user-username">
            <InputGroup
              id="user-username"
              name="username"
              value={form.username}
              onValueChange={(v) => set('username', v)}
            />
          </FormGroup>
          {!user && (
            <FormGroup label={t('admin.user.password')} labelFor="user-password">
              <InputGroup
                id="user-password"
                name="password"
                type="password"
                autoComplete="new-password"
                value={form.password}
                onValueChange={(v) => set('password', v)}
              />
            </FormGroup>
          )}
          {TEXT_FIELDS.map((key) => (
            <FormGroup key={key} label={t(`admin.user.${key}`)} labelFor={`user-${key}`}>
              <InputGroup
                id={`user-${key}`}
                name={key}
                value={form[key]}
                onValueChange={(v) => set(key, v)}
              />
            </FormGroup>
          ))}
          {organisations && (
            <FormGroup label={t('admin.user.org')} labelFor="user-org">
              <HTMLSelect
                id="user-org"
                name="orgId"
                fill
                value={form.orgId ?? ''}
                onChange={(e) => set('orgId', Number(e.target.value))}
              >
                {organisations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          <FormGroup label={t('admin.user.role')} labelFor="user-role">
            <HTMLSelect
              id="user-role"
              name="roleKey"
              fill
              value={form.roleKey}
              onChange={(e) => set('roleKey', e.target.value as RoleKey)}
            >
              {options.roles.map((r) => (
                <option key={r} value={r}>
                  {t(`admin.user.roles.${r}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {form.roleKey === 'company_manager' && (
            <FormGroup label={t('admin.user.company')} labelFor="user-company">
              <HTMLSelect
                id="user-company"
                fill
                value={form.scopeNodeId ?? ''}
                onChange={(e) => set('scopeNodeId', Number(e.target.value))}
              >
                {options.companies.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
        </div>
        <Switch
          label={t('admin.user.canOperate')}
          checked={form.canOperate}
          onChange={() => set('canOperate', !form.canOperate)}
        />
        <Switch
          label={t('admin.user.remoteConfig')}
          checked={form.remoteConfigFlag}
          onChange={() => set('remoteConfigFlag', !form.remoteConfigFlag)}
        />
        {(form.roleKey === 'area_manager' || form.roleKey === 'farm_manager') &&
          choices('farmIds', t('admin.user.farms'), options.farms)}
        {form.roleKey === 'shack_manager' &&
          choices('shackIds', t('admin.user.houses'), options.houses)}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('admin.common.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              loading={busy}
              text={t('admin.common.save')}
              onClick={() => confirmSave.ask(() => void submit())}
            />
          </>
        }
      >
        <span className={Classes.TEXT_MUTED} />
      </DialogFooter>
      {confirmSave.dialog}
    </Dialog>
  );
}
