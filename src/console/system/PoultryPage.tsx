import { useEffect, useState } from 'react';
import { Button, ButtonGroup, FormGroup, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { AddIcon, DuplicateIcon, EditIcon, SearchIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type BreedRow } from '../../contract/admin';
import { useStores } from '../useStores';
import { BreedDetailPanel } from './BreedDetail';
import { ConfirmDelete } from './parts/ConfirmDelete';
import { FieldsDialog } from './parts/FieldsDialog';
import { ListTable } from '../ListTable';
import { formatLocal } from './parts/dates';
import { notifySuccess, quietly } from './parts/notify';
import './parts/admin.css';

const FILTERS = { keyword: '' };

/** /system/poultry: breeds, their per-age grid and immune reminders. */
export const PoultryPage = observer(function PoultryPage() {
  const { t } = useTranslation();
  const { system } = useStores();
  const [list] = useState(() => system.breedList(FILTERS));
  const [opened] = useState(() => system.breedDetail());
  const detail = opened.detail;
  const [editing, setEditing] = useState<BreedRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BreedRow | null>(null);

  useEffect(() => {
    void quietly(() => list.load(1));
  }, [list]);

  const open = (id: number) => quietly(() => opened.open(id));
  const changed = async (message = t('admin.common.saved')) => {
    notifySuccess(message);
    await quietly(() => list.load());
  };
  const save = async (values: Record<string, string>) => {
    const row = editing === 'new' ? null : editing;
    const done = await quietly(() =>
      system.saveBreed({
        id: row?.id,
        name: values.name ?? '',
        code: values.code ?? '',
        factory: values.factory,
        description: values.description,
      }),
    );
    if (done === undefined) return false;
    await changed();
    return true;
  };
  const copy = async (b: BreedRow) => {
    const created = await quietly(() => system.copyBreed(b.id));
    if (!created) return;
    await changed();
    await open(created.id);
  };
  const remove = async (b: BreedRow) => {
    setDeleting(null);
    const deleted = (await quietly(() => system.deleteBreed(b.id))) !== undefined;
    if (deleted) {
      opened.forget(b.id);
      notifySuccess(t('admin.common.deleted'));
    }
    // Also after a failure: a request that timed out may have deleted it all the same.
    await quietly(() => list.reloadAfterDelete(deleted));
  };

  return (
    <div className="roost-page roost-admin" data-testid="page-poultry">
      <div className="roost-admin__card roost-admin__bar">
        <FormGroup label={t('admin.common.keyword')} labelFor="breed-keyword">
          <InputGroup
            id="breed-keyword"
            value={list.filters.keyword}
            onValueChange={(v) => list.setFilter('keyword', v)}
          />
        </FormGroup>
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('admin.common.search')}
          onClick={() => void quietly(() => list.load(1))}
        />
        <Button icon={<AddIcon />} text={t('admin.breed.add')} onClick={() => setEditing('new')} />
      </div>
      <div className="roost-admin__card">
        <ListTable
          className="roost-admin__table"
          paged={list}
          interactive
          headers={[
            ...(
              [
                'name',
                'code',
                'factory',
                'description',
                'createdAt',
                'operator',
                'isCommon',
              ] as const
            ).map((c) => t(`admin.breed.${c}`)),
            t('admin.common.actions'),
          ]}
        >
          {list.rows.map((b) => (
            <tr key={b.id} data-testid={`breed-${b.code}`} onClick={() => void open(b.id)}>
              <td>{b.name}</td>
              <td>{b.code}</td>
              <td>{b.factory}</td>
              <td>{b.description}</td>
              <td className="roost-admin__when">{formatLocal(b.createdAt)}</td>
              <td>{b.operator}</td>
              <td>
                {b.isCommon ? (
                  <Tag intent={Intent.PRIMARY} minimal>
                    {t('admin.common.yes')}
                  </Tag>
                ) : (
                  t('admin.common.no')
                )}
              </td>
              <td onClick={(e) => e.stopPropagation()}>
                <ButtonGroup variant="minimal">
                  <Button
                    icon={<DuplicateIcon />}
                    text={t('admin.breed.copy')}
                    onClick={() => void copy(b)}
                  />
                  {!b.isCommon && (
                    <Button
                      icon={<EditIcon />}
                      aria-label={t('admin.common.edit')}
                      onClick={() => setEditing(b)}
                    />
                  )}
                  {!b.isCommon && (
                    <Button
                      icon={<TrashIcon />}
                      intent={Intent.DANGER}
                      aria-label={t('admin.common.delete')}
                      onClick={() => setDeleting(b)}
                    />
                  )}
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </ListTable>
      </div>
      {detail && (
        <BreedDetailPanel
          key={detail.id}
          breed={detail}
          store={opened}
          onSaved={() => void open(detail.id)}
        />
      )}
      {editing && (
        <FieldsDialog
          title={editing === 'new' ? t('admin.breed.add') : t('admin.common.edit')}
          fields={(['name', 'code', 'factory', 'description'] as const).map((key) => ({
            key,
            label: t(`admin.breed.${key}`),
          }))}
          initial={
            editing === 'new'
              ? { name: '', code: '', factory: '', description: '' }
              : {
                  name: editing.name,
                  code: editing.code,
                  factory: editing.factory,
                  description: editing.description,
                }
          }
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
