import { useState } from 'react';
import { Button, ButtonGroup, Intent, Tag } from '@blueprintjs/core';
import { DuplicateIcon, EditIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type BreedRow } from '../../contract/admin';
import { useStores } from '../useStores';
import { BreedDetailPanel } from './BreedDetail';
import { FieldsDialog } from './parts/FieldsDialog';
import { ListTable } from '../ListTable';
import { ListPage, TextFilter } from '../ListPage';
import { useListActions } from '../listActions';
import { formatLocal } from './parts/dates';
import { quietly } from './parts/notify';
import './parts/admin.css';

const FILTERS = { keyword: '' };

/** /system/poultry: breeds, their per-age grid and immune reminders. */
export const PoultryPage = observer(function PoultryPage() {
  const { t } = useTranslation();
  const { system } = useStores();
  const [list] = useState(() => system.breedList(FILTERS));
  const [opened] = useState(() => system.breedDetail());
  const detail = opened.detail;
  const actions = useListActions<BreedRow>(list, {
    remove: (b) => system.deleteBreed(b.id),
    nameOf: (b) => b.name,
    onDeleted: (b) => opened.forget(b.id),
  });
  const editing = actions.editing;

  const open = (id: number) => quietly(() => opened.open(id));
  const save = (values: Record<string, string>) => {
    const row = editing === 'new' ? null : editing;
    return actions.save(() =>
      system.saveBreed({
        id: row?.id,
        name: values.name ?? '',
        code: values.code ?? '',
        factory: values.factory,
        description: values.description,
      }),
    );
  };
  const copy = async (b: BreedRow) => {
    const created = await quietly(() => system.copyBreed(b.id));
    if (!created) return;
    await actions.changed();
    await open(created.id);
  };

  return (
    <ListPage
      testId="page-poultry"
      actions={actions}
      filters={
        <TextFilter
          id="breed-keyword"
          label={t('admin.common.keyword')}
          value={list.filters.keyword}
          onChange={(v) => list.setFilter('keyword', v)}
          actions={actions}
        />
      }
      addText={t('admin.breed.add')}
      after={
        <>
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
              onClose={actions.closeEdit}
            />
          )}
        </>
      }
    >
      <ListTable
        className="roost-admin__table"
        paged={list}
        interactive
        headers={[
          ...(
            ['name', 'code', 'factory', 'description', 'createdAt', 'operator', 'isCommon'] as const
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
                    onClick={() => actions.edit(b)}
                  />
                )}
                {!b.isCommon && (
                  <Button
                    icon={<TrashIcon />}
                    intent={Intent.DANGER}
                    aria-label={t('admin.common.delete')}
                    onClick={() => actions.askDelete(b)}
                  />
                )}
              </ButtonGroup>
            </td>
          </tr>
        ))}
      </ListTable>
    </ListPage>
  );
});
