import { useRef, useState } from 'react';
import { Button, ButtonGroup, Classes, Intent } from '@blueprintjs/core';
import { EditIcon, MediaIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { LOGO_MAX_BYTES, type OrgRow } from '../../contract/admin';
import { uploadFile } from '../../stores/AdminFiles';
import { useStores } from '../useStores';
import { ListTable } from '../ListTable';
import { ListPage, TextFilter } from '../ListPage';
import { useListActions } from '../listActions';
import { notifyError, notifySuccess, quietly } from './parts/notify';
import { OrgDialog } from './OrgDialog';
import './parts/admin.css';

const FILTERS = { keyword: '' };

/** /system/org: organisations, administrators only. */
export const OrgPage = observer(function OrgPage() {
  const { t } = useTranslation();
  const stores = useStores();
  const { system } = stores;
  const [list] = useState(() => system.orgList(FILTERS));
  const actions = useListActions<OrgRow>(list, {
    remove: (org) => system.deleteOrg(org.id),
    nameOf: (org) => org.name,
  });
  const editing = actions.editing;
  const fileInput = useRef<HTMLInputElement>(null);
  const [logoFor, setLogoFor] = useState<OrgRow | null>(null);

  const upload = async (file: File | undefined) => {
    if (!file || !logoFor) return;
    // Checked here for a quick answer; the server checks the bytes and the size again.
    if (file.size > LOGO_MAX_BYTES) return notifyError(new Error(t('admin.org.logoTooLarge')));
    try {
      await uploadFile(
        `/api/org/uploadLogo?id=${logoFor.id}`,
        { token: stores.session.token, locale: stores.ui.language },
        file,
      );
      notifySuccess(t('admin.org.logoUploaded'));
      // The top bar shows the user's own organisation's logo: refresh it in case it was this one.
      void stores.session.loadLogo();
      await quietly(() => list.load());
    } catch (error) {
      notifyError(error);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <ListPage
      testId="page-org"
      actions={actions}
      filters={
        <TextFilter
          id="org-keyword"
          label={t('admin.common.keyword')}
          value={list.filters.keyword}
          onChange={(v) => list.setFilter('keyword', v)}
          actions={actions}
        />
      }
      addText={t('admin.org.add')}
      barEnd={
        <input
          ref={fileInput}
          type="file"
          accept="image/png"
          hidden
          data-testid="logo-input"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      }
      after={
        editing && (
          <OrgDialog
            org={editing === 'new' ? null : editing}
            onSave={(input) => actions.save(() => system.saveOrg(input))}
            onClose={actions.closeEdit}
          />
        )
      }
    >
      <ListTable
        className="roost-admin__table"
        paged={list}
        headers={[
          ...(
            [
              'name',
              'code',
              'principal',
              'officeTel',
              'mobile',
              'email',
              'mapType',
              'logo',
            ] as const
          ).map((c) => t(`admin.org.${c}`)),
          t('admin.common.actions'),
        ]}
      >
        {list.rows.map((o) => (
          <tr key={o.id} data-testid={`org-${o.code}`}>
            <td>{o.name}</td>
            <td>{o.code}</td>
            <td>{o.principal}</td>
            <td>{o.officeTel}</td>
            <td>{o.mobile}</td>
            <td>{o.email}</td>
            <td>{o.mapType === '2' ? t('admin.org.mapWorld') : t('admin.org.mapChina')}</td>
            <td className={o.hasLogo ? undefined : Classes.TEXT_MUTED}>
              {o.hasLogo ? '✓' : t('admin.org.noLogo')}
            </td>
            <td>
              <ButtonGroup variant="minimal">
                <Button
                  icon={<EditIcon />}
                  aria-label={t('admin.common.edit')}
                  onClick={() => actions.edit(o)}
                />
                <Button
                  icon={<MediaIcon />}
                  aria-label={t('admin.org.logo')}
                  title={t('admin.org.logoHint')}
                  onClick={() => {
                    setLogoFor(o);
                    fileInput.current?.click();
                  }}
                />
                <Button
                  icon={<TrashIcon />}
                  intent={Intent.DANGER}
                  aria-label={t('admin.common.delete')}
                  onClick={() => actions.askDelete(o)}
                />
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </ListTable>
    </ListPage>
  );
});
