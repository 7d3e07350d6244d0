import { useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Classes, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { AddIcon, EditIcon, MediaIcon, SearchIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { LOGO_MAX_BYTES, type OrgInput, type OrgRow } from '../../contract/admin';
import { uploadFile } from '../../stores/AdminFiles';
import { useStores } from '../useStores';
import { ConfirmDelete } from './parts/ConfirmDelete';
import { ListTable } from '../ListTable';
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
  const [editing, setEditing] = useState<OrgRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OrgRow | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [logoFor, setLogoFor] = useState<OrgRow | null>(null);

  useEffect(() => {
    void quietly(() => list.load(1));
  }, [list]);

  const save = async (input: OrgInput) => {
    const done = await quietly(() => system.saveOrg(input));
    if (done === undefined) return false;
    notifySuccess(t('admin.common.saved'));
    await quietly(() => list.load());
    return true;
  };
  const remove = async (org: OrgRow) => {
    setDeleting(null);
    const deleted = (await quietly(() => system.deleteOrg(org.id))) !== undefined;
    if (deleted) notifySuccess(t('admin.common.deleted'));
    // Also after a failure: a request that timed out may have deleted it all the same.
    await quietly(() => list.reloadAfterDelete(deleted));
  };
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
    <div className="roost-page roost-admin" data-testid="page-org">
      <div className="roost-admin__card roost-admin__bar">
        <FormGroup label={t('admin.common.keyword')} labelFor="org-keyword">
          <InputGroup
            id="org-keyword"
            value={list.filters.keyword}
            onValueChange={(v) => list.setFilter('keyword', v)}
            onKeyDown={(e) => e.key === 'Enter' && void quietly(() => list.load(1))}
          />
        </FormGroup>
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('admin.common.search')}
          onClick={() => void quietly(() => list.load(1))}
        />
        <Button icon={<AddIcon />} text={t('admin.org.add')} onClick={() => setEditing('new')} />
        <input
          ref={fileInput}
          type="file"
          accept="image/png"
          hidden
          data-testid="logo-input"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </div>
      <div className="roost-admin__card">
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
                    onClick={() => setEditing(o)}
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
                    onClick={() => setDeleting(o)}
                  />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </ListTable>
      </div>
      {editing && (
        <OrgDialog
          org={editing === 'new' ? null : editing}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDelete
        name={deleting?.name ?? null}
        remaining={list.total - 1}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
});
