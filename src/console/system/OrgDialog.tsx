import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
  TextArea,
} from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useConfirmSave } from '../useConfirmSave';
import { type OrgInput, type OrgRow } from '../../contract/admin';

export interface OrgDialogProps {
  /** The organisation edited, or null for a new one. */
  org: OrgRow | null;
  onSave(input: OrgInput): Promise<boolean>;
  onClose(): void;
}

const FIELDS = ['name', 'code', 'principal', 'officeTel', 'mobile', 'fax', 'email'] as const;

/** Create or edit an organisation. */
export function OrgDialog({ org, onSave, onClose }: OrgDialogProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const [form, setForm] = useState({
    name: org?.name ?? '',
    code: org?.code ?? '',
    principal: org?.principal ?? '',
    officeTel: org?.officeTel ?? '',
    mobile: org?.mobile ?? '',
    fax: org?.fax ?? '',
    email: org?.email ?? '',
    remark: org?.remark ?? '',
    mapType: org?.mapType ?? ('1' as '1' | '2'),
  });
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const saved = await onSave(org ? { ...form, id: org.id } : form);
    setBusy(false);
    if (saved) onClose();
  };
  return (
    <Dialog
      isOpen
      title={org ? t('admin.common.edit') : t('admin.org.add')}
      onClose={onClose}
      style={{ width: 640, maxWidth: '95vw' }}
    >
      <DialogBody>
        <div className="roost-admin__form">
          {FIELDS.map((key) => (
            <FormGroup key={key} label={t(`admin.org.${key}`)} labelFor={`org-${key}`}>
              <InputGroup
                id={`org-${key}`}
                name={key}
                value={form[key]}
                onValueChange={(v) => setForm((f) => ({ ...f, [key]: v }))}
              />
            </FormGroup>
          ))}
          <FormGroup label={t('admin.org.mapType')} labelFor="org-mapType">
            <HTMLSelect
              id="org-mapType"
              fill
              value={form.mapType}
              onChange={(e) => setForm((f) => ({ ...f, mapType: e.target.value as '1' | '2' }))}
            >
              <option value="1">{t('admin.org.mapChina')}</option>
              <option value="2">{t('admin.org.mapWorld')}</option>
            </HTMLSelect>
          </FormGroup>
        </div>
        <FormGroup label={t('admin.org.remark')} labelFor="org-remark">
          <TextArea
            id="org-remark"
            fill
            value={form.remark}
            onChange={(e) => setForm((f) => ({ ...f, remark: e.target.value }))}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('admin.common.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              loading={busy}
              text={t('admin.common.save')}
              onClick={() => confirmSave.ask(() => void submit(), org?.name)}
            />
          </>
        }
      />
      {confirmSave.dialog}
    </Dialog>
  );
}
