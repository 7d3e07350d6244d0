import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  ButtonGroup,
  Callout,
  FormGroup,
  HTMLSelect,
  Intent,
} from '@blueprintjs/core';
import { EditIcon, KeyIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type UserRow } from '../../contract/admin';
import { useStores } from '../useStores';
import { ListTable } from '../ListTable';
import { ListPage, TextFilter } from '../ListPage';
import { useListActions } from '../listActions';
import { formatLocal } from './parts/dates';
import { quietly } from './parts/notify';
import { UserDialog } from './UserDialog';
import './parts/admin.css';

const FILTERS = { keyword: '', roleKey: '' };

/** /system/user: users below the caller's role, inside its scope. */
export const UserPage = observer(function UserPage() {
  const { t } = useTranslation();
  const { system, session } = useStores();
  const admin = session.roleKey === 'administrator';
  const [list] = useState(() => system.userList(FILTERS));
  const actions = useListActions<UserRow>(list, {
    remove: (user) => system.deleteUser(user.id),
    nameOf: (user) => user.username,
  });
  const editing = actions.editing;
  const options = system.assignable;
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [newPassword, setNewPassword] = useState<string | null>(null);

  useEffect(() => {
    void quietly(() => system.loadAssignable());
    if (admin) void quietly(() => system.loadOrgs());
  }, [system, admin]);

  const reset = async (user: UserRow) => {
    setResetting(null);
    const result = await quietly(() => system.resetPassword(user.id));
    if (result) setNewPassword(result.password);
  };

  return (
    <ListPage
      testId="page-user"
      actions={actions}
      filters={
        <>
          <TextFilter
            id="user-keyword"
            label={t('admin.user.username')}
            value={list.filters.keyword}
            onChange={(v) => list.setFilter('keyword', v)}
            actions={actions}
          />
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
        </>
      }
      addText={t('admin.user.add')}
      after={
        <>
          {editing && (
            <UserDialog
              user={editing === 'new' ? null : editing}
              options={options}
              organisations={admin ? system.orgs : undefined}
              onSave={(input) => actions.save(() => system.saveUser(input))}
              onClose={actions.closeEdit}
            />
          )}
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
        </>
      }
    >
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
                  onClick={() => actions.edit(u)}
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
                  onClick={() => actions.askDelete(u)}
                />
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </ListTable>
    </ListPage>
  );
});
