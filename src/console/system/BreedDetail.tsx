import { useState } from 'react';
import {
  Alert,
  Button,
  Callout,
  Classes,
  HTMLTable,
  InputGroup,
  Intent,
  TextArea,
} from '@blueprintjs/core';
import { AddIcon, ClipboardIcon, FloppyDiskIcon, TrashIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useConfirmSave } from '../useConfirmSave';
import { useStores } from '../useStores';
import {
  BREED_TARGET_FIELDS,
  type BreedDetail as Detail,
  type BreedTargetRow,
} from '../../contract/admin';
import { type BreedDetailStore } from '../../stores/admin/BreedDetailStore';
import { WarningLimitsCard } from '../production/WarningLimitsCard';
import { emptyRow, parsePastedGrid } from './breedGrid';
import { notifyError, notifySuccess, quietly } from './parts/notify';

export interface BreedDetailProps {
  breed: Detail;
  /** Saves through the store that opened the breed. */
  store: BreedDetailStore;
  onSaved(): void;
}

const cellText = (v: number | null) => (v === null ? '' : String(v));
const parseCell = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? null : Number(s));

/** The per-age grid (editable, paste from a spreadsheet) and the immune reminders of a breed. */
export function BreedDetailPanel({ breed, store, onSaved }: BreedDetailProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const readOnly = breed.isCommon;
  // The breed is administration; its warning limits are operating (README "Roles and the
  // operation permission").
  const { session } = useStores();
  const [rows, setRows] = useState<BreedTargetRow[]>(breed.targets);
  const [immune, setImmune] = useState(breed.immune);
  const [pasteText, setPasteText] = useState<string | null>(null);
  const [confirmPaste, setConfirmPaste] = useState(false);

  const setCell = (i: number, key: keyof BreedTargetRow, value: string) =>
    setRows((rs) =>
      rs.map((r, j) =>
        j === i ? { ...r, [key]: key === 'ageDay' ? Number(value) || 0 : parseCell(value) } : r,
      ),
    );
  const applyPaste = () => {
    setConfirmPaste(false);
    const parsed = parsePastedGrid(pasteText ?? '');
    if ('badLine' in parsed)
      return notifyError(new Error(t('admin.breed.pasteBad', { line: parsed.badLine })));
    setRows(parsed.rows);
    setPasteText(null);
    notifySuccess(t('admin.breed.pasted', { count: parsed.rows.length }));
  };
  const save = async () => {
    if ((await quietly(() => store.save(breed.id, rows, immune))) === undefined) return;
    notifySuccess(t('admin.common.saved'));
    onSaved();
  };

  return (
    <div className="roost-admin__card" data-testid="breed-detail">
      {confirmSave.dialog}
      <div className="roost-admin__bar">
        <h3 className={Classes.HEADING}>
          {breed.name} · {t('admin.breed.config')}
        </h3>
        {!readOnly && (
          <>
            <Button
              icon={<AddIcon />}
              text={t('admin.breed.addRow')}
              onClick={() => setRows((rs) => [...rs, emptyRow((rs.at(-1)?.ageDay ?? -1) + 1)])}
            />
            <Button
              icon={<ClipboardIcon />}
              text={t('admin.breed.paste')}
              onClick={() => setPasteText('')}
            />
            <Button
              icon={<FloppyDiskIcon />}
              intent={Intent.PRIMARY}
              text={t('admin.common.save')}
              onClick={() => confirmSave.ask(() => void save(), breed.name)}
            />
          </>
        )}
      </div>
      {readOnly && <Callout intent={Intent.PRIMARY}>{t('admin.breed.readOnly')}</Callout>}
      {pasteText !== null && (
        <div>
          <p className={Classes.TEXT_MUTED}>{t('admin.breed.pasteHint')}</p>
          <TextArea
            fill
            rows={5}
            aria-label={t('admin.breed.paste')}
            data-testid="paste-area"
            value={pasteText}
            onChange={(e) => setPasteText(e.target.value)}
          />
          <Button
            intent={Intent.PRIMARY}
            text={t('admin.breed.pasteApply')}
            onClick={() => setConfirmPaste(true)}
          />
          <Button
            variant="minimal"
            text={t('admin.common.cancel')}
            onClick={() => setPasteText(null)}
          />
        </div>
      )}
      <div style={{ overflowX: 'auto' }}>
        <HTMLTable
          className="roost-admin__table roost-admin__grid"
          compact
          data-testid="breed-grid"
        >
          <thead>
            <tr>
              <th>{t('admin.breed.ageDay')}</th>
              {BREED_TARGET_FIELDS.map((f) => (
                <th key={f}>{t(`admin.breed.fields.${f}`)}</th>
              ))}
              {!readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {(['ageDay', ...BREED_TARGET_FIELDS] as const).map((f) => (
                  <td key={f}>
                    {readOnly ? (
                      cellText(r[f])
                    ) : (
                      <InputGroup
                        small
                        value={cellText(r[f])}
                        onValueChange={(v) => setCell(i, f, v)}
                      />
                    )}
                  </td>
                ))}
                {!readOnly && (
                  <td>
                    <Button
                      variant="minimal"
                      icon={<TrashIcon />}
                      aria-label={t('admin.common.delete')}
                      onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <div className="roost-admin__bar">
        <h4 className={Classes.HEADING}>{t('admin.breed.immune')}</h4>
        {!readOnly && (
          <Button
            small
            icon={<AddIcon />}
            text={t('admin.breed.addRow')}
            onClick={() => setImmune((im) => [...im, { ageDay: 1, content: '' }])}
          />
        )}
      </div>
      <HTMLTable className="roost-admin__table" compact>
        <thead>
          <tr>
            <th>{t('admin.breed.ageDay')}</th>
            <th>{t('admin.breed.content')}</th>
          </tr>
        </thead>
        <tbody>
          {immune.map((r, i) => (
            <tr key={i}>
              <td>
                {readOnly ? (
                  r.ageDay
                ) : (
                  <InputGroup
                    small
                    value={String(r.ageDay)}
                    onValueChange={(v) =>
                      setImmune((im) =>
                        im.map((x, j) => (j === i ? { ...x, ageDay: Number(v) || 0 } : x)),
                      )
                    }
                  />
                )}
              </td>
              <td>
                {readOnly ? (
                  r.content
                ) : (
                  <InputGroup
                    small
                    value={r.content}
                    onValueChange={(v) =>
                      setImmune((im) => im.map((x, j) => (j === i ? { ...x, content: v } : x)))
                    }
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <WarningLimitsCard
        target={{ kind: 'breed', breedId: breed.id }}
        name={breed.name}
        readOnly={readOnly || !session.canOperate}
      />
      <Alert
        isOpen={confirmPaste}
        intent={Intent.WARNING}
        confirmButtonText={t('admin.breed.pasteApply')}
        cancelButtonText={t('admin.common.cancel')}
        onConfirm={applyPaste}
        onCancel={() => setConfirmPaste(false)}
      >
        <p>{t('admin.breed.pasteConfirm')}</p>
      </Alert>
    </div>
  );
}
