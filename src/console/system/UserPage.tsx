import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  ButtonGroup,
  Callout,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, KeyIcon, SearchIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type UserRow, type UserSaveInput } from '../../contract/admin';
import { useStores } from '../useStores';
import { ConfirmDelete } from './parts/ConfirmDelete';
import { ListTable } from '../ListTable';
import { formatLocal } from './parts/dates';
import { notifySuccess, quietly } from './parts/notify';
import { UserDialog } from './UserDialog';
import './parts/admin.css';

const FILTERS = { keyword: '', roleKey: '' };

/** /system/user: users below the caller's role, inside its scope. */
export const UserPage = observer(function UserPage() {
  const { t } = useTranslation();
  const { system, session } = useStores();
  const admin = session.roleKey === 'administrator';
  const [list] = useState(() => system.userList(FILTERS));
  const options = system.assignable;
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [newPassword, setNewPassword] = useState<string | null>(null);

  useEffect(() => {
    void quietly(() => list.load(1));
    void quietly(() => system.loadAssignable());
    if (admin) void quietly(() => system.loadOrgs());
  }, [system, list, admin]);

  const save = async (input: UserSaveInput) => {
    const done = await quietly(() => system.saveUser(input));
    if (done === undefined) return false;
    notifySuccess(t('admin.common.saved'));
    await quietly(() => list.load());
    return true;
  };
  const remove = async (user: UserRow) => {
    setDeleting(null);
    const deleted = (await quietly(() => system.deleteUser(user.id))) !== undefined;
    if (deleted) notifySuccess(t('admin.common.deleted'));
    // Also after a failure: a request that timed out may have deleted it all the same.
    await quietly(() => list.reloadAfterDelete(deleted));
  };
  const reset = async (user: UserRow) => {
    setResetting(null);
    const result = await quietly(() => system.resetPassword(user.id));
    if (result) setNewPassword(result.password);
  };

  return (
    <div className="roost-page roost-admin" data-testid="page-user">
      <div className="roost-admin__card roost-admin__bar">
        <FormGroup label={t('admin.user.username')} labelFor="user-keyword">
          <InputGroup
            id="user-keyword"
            value={list.filters.keyword}
            onValueChange={(v) => list.setFilter('keyword', v)}
            onKeyDown={(e) => e.key === 'Enter' && void quietly(() => list.load(1))}
          />
        </FormGroup>
        <FormGroup label={t('admin.user.role')} labelFor="user-role-filter">
          <HTMLSelect
            id="user-role-filter"
            value={list.filters.roleKey}
            onChange={(e) => list.setFilter('roleKey', e.target.value)}
          >
            <option value="">{t('admin.common.all')}</option>
            {options.roles.map((r) => (
              <option key={r} value={r}>
                {t(`admin.user.roles.${r}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('admin.common.search')}
          onClick={() => void quietly(() => list.load(1))}
        />
        <Button icon={<AddIcon />} text={t('admin.user.add')} onClick={() => setEditing('new')} />
      </div>
      <div className="roost-admin__card">
        <ListTable
          className="roost-admin__table"
          paged={list}
          headers={[
            t('admin.user.username'),
            t('admin.user.realName'),
            t('admin.user.department'),
            t('admin.user.position'),
            t('admin.user.mobile'),
            t('admin.user.role'),
            t('admin.user.canOperate'),
            t('admin.user.lastLogin'),
            t('admin.user.loginCount'),
            t('admin.common.actions'),
          ]}
        >
          {list.rows.map((u) => (
            <tr key={u.id} data-testid={`user-${u.username}`}>
              <td>{u.username}</td>
              <td>{u.realName}</td>
              <td>{u.department}</td>
              <td>{u.position}</td>
              <td>{u.mobile}</td>
              <td>{t(`admin.user.roles.${u.roleKey}`)}</td>
              <td>{u.canOperate === '1' ? t('admin.common.yes') : t('admin.common.no')}</td>
              <td className="roost-admin__when">{formatLocal(u.lastLoginAt)}</td>
              <td>{u.loginCount}</td>
              <td>
                <ButtonGroup variant="minimal">
                  <Button
                    icon={<EditIcon />}
                    aria-label={t('admin.common.edit')}
                    onClick={() => setEditing(u)}
                  />
                  <Button
                    icon={<KeyIcon />}
                    aria-label={t('admin.user.resetPwd')}
                    onClick={() => setResetting(u)}
                  />
                  <Button
                    icon={<TrashIcon />}
                    intent={Intent.DANGER}
                    aria-label={t('admin.common.delete')}
                    onClick={() => setDeleting(u)}
                  />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </ListTable>
      </div>
      {editing && (
        <UserDialog
          user={editing === 'new' ? null : editing}
          options={options}
          organisations={admin ? system.orgs : undefined}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDelete
        name={deleting?.username ?? null}
        remaining={list.total - 1}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
      <Alert
        isOpen={resetting !== null}
        intent={Intent.WARNING}
        confirmButtonText={t('admin.user.resetPwd')}
        cancelButtonText={t('admin.common.cancel')}
        onConfirm={() => resetting && void reset(resetting)}
        onCancel={() => setResetting(null)}
      >
        <p>{t('admin.user.resetConfirm', { name: resetting?.username ?? '' })}</p>
      </Alert>
      <Alert
        isOpen={newPassword !== null}
        confirmButtonText={t('admin.common.close')}
        onConfirm={() => setNewPassword(null)}
      >
        <Callout intent={Intent.SUCCESS}>{t('admin.user.resetDone')}</Callout>
        <p className="roost-admin__token" data-testid="new-password">
          {newPassword}
        </p>
      </Alert>
    </div>
  );
});
