import { useTranslation } from 'react-i18next';
import { orgInputSchema, type OrgInput, type OrgRow } from '../../contract/admin';
import { FormDialog } from '../forms/FormDialog';
import { SelectField, TextAreaField, TextField } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

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
  const form = useSchemaForm(orgInputSchema, {
    name: org?.name ?? '',
    code: org?.code ?? '',
    principal: org?.principal ?? '',
    officeTel: org?.officeTel ?? '',
    mobile: org?.mobile ?? '',
    fax: org?.fax ?? '',
    email: org?.email ?? '',
    remark: org?.remark ?? '',
    mapType: org?.mapType ?? '1',
  });
  return (
    <FormDialog
      title={org ? t('admin.common.edit') : t('admin.org.add')}
      form={form}
      onSave={(v) => onSave(org ? { ...v, id: org.id } : v)}
      onClose={onClose}
      confirmName={org?.name}
      style={{ width: 640, maxWidth: '95vw' }}
    >
      <div className="roost-admin__form">
        {FIELDS.map((key) => (
          <TextField
            key={key}
            control={form.control}
            name={key}
            id={`org-${key}`}
            label={t(`admin.org.${key}`)}
          />
        ))}
        <SelectField
          control={form.control}
          name="mapType"
          id="org-mapType"
          label={t('admin.org.mapType')}
          options={[
            { value: '1', label: t('admin.org.mapChina') },
            { value: '2', label: t('admin.org.mapWorld') },
          ]}
        />
      </div>
      <TextAreaField
        control={form.control}
        name="remark"
        id="org-remark"
        label={t('admin.org.remark')}
      />
    </FormDialog>
  );
}
