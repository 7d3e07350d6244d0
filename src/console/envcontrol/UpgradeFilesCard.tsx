import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  Callout,
  Card,
  Checkbox,
  FileInput,
  FormGroup,
  H5,
  HTMLTable,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { CloudUploadIcon, DuplicateIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { GATEWAY_TYPES, gatewayTypeName } from '../../contract/gatewayTypes';
import { upgradeFileSchema, upgradeUploadProblem, type UpgradeFile } from '../../contract/upgrade';
import { formatDateTime } from '../../i18n/dates';
import { uploadFile } from '../../stores/AdminFiles';
import { ScrollRegion } from '../ScrollRegion';
import { ConfirmDelete } from '../system/parts/ConfirmDelete';
import { showSuccessToast } from '../toaster';
import { useConfirmSave } from '../useConfirmSave';
import { useStores } from '../useStores';

/** The gateway models an upgrade file can be for, by name. */
const modelsIn = (language: string) =>
  Object.keys(GATEWAY_TYPES)
    .map((key) => ({ key: Number(key), name: gatewayTypeName(Number(key), language) }))
    .sort((a, b) => a.name.localeCompare(b.name));

const modelNames = (keys: readonly number[], language: string) =>
  keys.map((k) => gatewayTypeName(k, language)).join(', ');

/** 1.2 MB, 340 KB, 17 B: enough to tell files apart at a glance. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/**
 * Upgrade files, for administrators (the only ones the server lets upload, list or delete
 * them): the stored files, each with its delete, and a form to add one. The upload is checked
 * first by the contract's rules (a suffix, an empty file, over 5 MB, no gateway model: the
 * server's own checks and words); a refusal only the server can make (a delete while an upgrade
 * installs the file) is shown as it wrote it. A new file is uploaded without a question; only
 * one whose name and version are listed already asks first.
 */
export const UpgradeFilesCard = observer(function UpgradeFilesCard() {
  const { t, i18n } = useTranslation();
  const stores = useStores();
  const { api, session, ui } = stores;
  const [files, setFiles] = useState<UpgradeFile[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  // Asked only when a file of this name and version is listed already: anything else is new.
  const confirm = useConfirmSave({
    title: t('gatewayOps.files.same.title', { name: file?.name ?? '', version: version.trim() }),
    text: t('gatewayOps.files.same.text'),
    confirm: t('gatewayOps.files.same.confirm'),
    icon: <DuplicateIcon />,
    intent: Intent.PRIMARY,
    className: 'roost-confirm-save',
  });
  const [models, setModels] = useState<number[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<UpgradeFile | null>(null);
  // A new key empties the browser's file chooser after an upload (its value cannot be set).
  const [chooser, setChooser] = useState(0);
  const admin = session.roleKey === 'administrator';
  // Upgrade files are operating (README "Roles and the operation permission"): listed to all.
  const operate = session.canOperate;

  const load = useCallback(async () => {
    const list = await api.get('/upgrade/files', { schema: z.array(upgradeFileSchema) });
    setFiles(list);
  }, [api]);
  useEffect(() => {
    if (admin) void load().catch(() => undefined);
  }, [admin, load]);
  if (!admin) return null;

  const toggle = (key: number, on: boolean) =>
    setModels((keys) => (on ? [...keys, key] : keys.filter((k) => k !== key)));

  const upload = async (chosen: File) => {
    setBusy(true);
    setRefusal(null);
    const query = new URLSearchParams({ version: version.trim(), typeKeys: models.join(',') });
    try {
      await uploadFile(
        `/api/upgrade/uploadFile?${query.toString()}`,
        { token: session.token, locale: ui.language },
        chosen,
      );
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
      return;
    } finally {
      setBusy(false);
    }
    showSuccessToast(t('gatewayOps.files.uploaded'));
    setFile(null);
    setVersion('');
    setModels([]);
    setChooser((n) => n + 1);
    await load().catch(() => undefined);
  };

  // The list is read again whatever the answer: a refusal (an upgrade still installs the file)
  // or an answer lost on the way must not leave a row that is not as stored.
  const remove = async (target: UpgradeFile) => {
    setDeleting(null);
    try {
      await api.post('/upgrade/deleteFile', { body: { sha256: target.sha256 } });
      showSuccessToast(t('gatewayOps.files.deleted'));
    } catch {
      // The client showed the server's reason.
    }
    await load().catch(() => undefined);
  };

  return (
    <Card className="roost-envcontrol--files" data-testid="upgrade-files">
      <H5>{t('gatewayOps.files.title')}</H5>
      <p className="roost-envcontrol__hint">{t('gatewayOps.files.rules')}</p>
      {files.length === 0 ? (
        <p>{t('gatewayOps.upgrade.none')}</p>
      ) : (
        <ScrollRegion className="roost-envcontrol__scroll" label={t('gatewayOps.files.title')}>
          <HTMLTable compact striped className="roost-envcontrol__table">
            <thead>
              <tr>
                <th>{t('gatewayOps.files.version')}</th>
                <th>{t('gatewayOps.files.name')}</th>
                <th>{t('gatewayOps.files.size')}</th>
                <th>{t('gatewayOps.files.models')}</th>
                <th>{t('gatewayOps.files.uploadedAt')}</th>
                <th>{t('admin.common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={f.sha256} data-testid="upgrade-file-row">
                  <td>{f.version}</td>
                  <td className="roost-envcontrol__nowrap">{f.fileName}</td>
                  <td className="roost-envcontrol__nowrap">{sizeText(f.size)}</td>
                  <td>{modelNames(f.typeKeys, i18n.language)}</td>
                  <td className="roost-envcontrol__nowrap">{formatDateTime(f.uploadedAt)}</td>
                  <td>
                    <Button
                      small
                      minimal
                      disabled={!operate}
                      intent={Intent.DANGER}
                      icon={<TrashIcon />}
                      aria-label={t('gatewayOps.files.deleteNamed', { name: f.fileName })}
                      data-testid="upgrade-file-delete"
                      onClick={() => setDeleting(f)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </ScrollRegion>
      )}
      <form
        className="roost-envcontrol__upload"
        onSubmit={(event) => {
          event.preventDefault();
          if (!file) return;
          // The server's rules first, so a wrong file is not sent (up to 5 MB) only to be refused.
          const problem = upgradeUploadProblem(file, version.trim(), models);
          if (problem) {
            setRefusal(t(`gatewayOps.files.problem.${problem.key}`, problem));
            return;
          }
          const same = files.some((f) => f.fileName === file.name && f.version === version.trim());
          if (same) confirm.ask(() => void upload(file));
          else void upload(file);
        }}
      >
        <FormGroup label={t('gatewayOps.files.file')} labelFor="upgrade-file-input">
          <FileInput
            key={chooser}
            fill
            text={file ? file.name : t('gatewayOps.files.choose')}
            buttonText={t('gatewayOps.files.browse')}
            hasSelection={file !== null}
            inputProps={{ id: 'upgrade-file-input' }}
            onInputChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              setRefusal(null);
            }}
          />
        </FormGroup>
        <FormGroup label={t('gatewayOps.files.version')} labelFor="upgrade-file-version">
          <InputGroup
            id="upgrade-file-version"
            value={version}
            placeholder="2.9.0"
            data-testid="upgrade-file-version"
            onValueChange={setVersion}
          />
        </FormGroup>
        <FormGroup label={t('gatewayOps.files.models')}>
          <div className="roost-envcontrol__models" data-testid="upgrade-file-models">
            {modelsIn(i18n.language).map((m) => (
              <Checkbox
                key={m.key}
                inline
                label={m.name}
                checked={models.includes(m.key)}
                onChange={(event) => toggle(m.key, event.currentTarget.checked)}
              />
            ))}
          </div>
        </FormGroup>
        {refusal && (
          <Callout intent={Intent.DANGER} data-testid="upgrade-file-refusal">
            {refusal}
          </Callout>
        )}
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon={<CloudUploadIcon />}
          disabled={!file || !operate}
          loading={busy}
          data-testid="upgrade-file-upload"
        >
          {t('gatewayOps.files.upload')}
        </Button>
      </form>
      {confirm.dialog}
      <ConfirmDelete
        name={deleting ? `${deleting.fileName} (${deleting.version})` : null}
        remaining={files.length - 1}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
});
