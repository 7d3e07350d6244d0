import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, ButtonGroup, Classes, HTMLTable, Intent } from '@blueprintjs/core';
import { AddIcon, EditIcon, TrashIcon } from '@blueprintjs/icons';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  CAMERA_VENDORS,
  cameraInputSchema,
  cameraSchema,
  type Camera,
  type CameraInput,
} from '../../contract/cameras';
import { deletedSchema } from '../../contract/devices';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { FormDialog } from '../forms/FormDialog';
import { NumberField, SelectField, TextField, optionsOf } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';
import { ScrollRegion } from '../ScrollRegion';

const listSchema = z.object({ rows: z.array(cameraSchema) });

const SECRETS = ['userName', 'password', 'verifyCode'] as const;

function CameraDialog(props: {
  houseId: number;
  camera: Camera | null;
  onSave(input: CameraInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { camera } = props;
  const form = useSchemaForm(cameraInputSchema, {
    houseId: props.houseId,
    name: camera?.name ?? '',
    code: camera?.code ?? '',
    channel: camera?.channel ?? 1,
    vendor: camera?.vendor ?? 'hikvision',
    userName: '',
    streamUrl: camera?.streamUrl ?? '',
  });
  const vendor = useWatch({ control: form.control, name: 'vendor' });
  // Secrets are never sent back: an edit shows empty fields that keep the stored value.
  const field = (key: 'name' | 'code' | 'userName' | 'streamUrl' | 'password' | 'verifyCode') => (
    <TextField
      control={form.control}
      name={key}
      label={t(`devices.field.${key}`)}
      helperText={
        camera && (SECRETS as readonly string[]).includes(key)
          ? t('devices.field.keepSecret')
          : undefined
      }
      type={key === 'password' ? 'password' : 'text'}
      autoComplete={key === 'password' ? 'new-password' : 'off'}
      testId={`camera-${key}`}
    />
  );
  const title = t(camera ? 'devices.action.edit' : 'devices.action.add');
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={(v) => props.onSave(camera ? { ...v, id: camera.id } : v)}
      onClose={props.onClose}
      confirmName={camera?.name}
      adding={!camera}
      className="roost-devices__dialog"
      saveTestId="camera-save"
    >
      <div className="roost-devices__form">
        {field('name')}
        {field('code')}
        <SelectField
          control={form.control}
          name="vendor"
          label={t('devices.field.vendor')}
          options={optionsOf(CAMERA_VENDORS, (x) => t(`devices.camera.vendor.${x}`))}
        />
        <NumberField
          control={form.control}
          name="channel"
          min={1}
          label={t('devices.field.channel')}
        />
        {field('userName')}
        {field('password')}
        {vendor === 'hikvision' && field('verifyCode')}
        {field('streamUrl')}
      </div>
    </FormDialog>
  );
}

/** The cameras tab of a house: list, create, edit, delete with the count left. */
export function CamerasPanel({ houseId, operate }: { houseId: number; operate: boolean }) {
  const { t } = useTranslation();
  const { api } = useStores();
  const [rows, setRows] = useState<Camera[] | null>(null);
  const [editing, setEditing] = useState<Camera | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Camera | null>(null);
  const load = useCallback(
    () =>
      api
        .get('/camera/list', { query: { houseId }, schema: listSchema })
        .then((r) => setRows(r.rows))
        .catch(() => undefined),
    [api, houseId],
  );
  useEffect(() => void load(), [load]);
  const save = async (input: CameraInput & { id?: number }) => {
    try {
      if (input.id) await api.put('/camera/update', { body: input, schema: cameraSchema });
      else await api.post('/camera/create', { body: input, schema: cameraSchema });
    } catch {
      return false;
    }
    showSuccessToast(t('devices.saved'));
    await load();
    return true;
  };
  const remove = async (camera: Camera) => {
    setDeleting(null);
    try {
      const r = await api.delete('/camera/delete', {
        body: { id: camera.id },
        schema: deletedSchema,
      });
      showSuccessToast(t('devices.deleted', { remaining: r.remaining }));
    } catch {
      return;
    }
    await load();
  };
  const yes = (set: boolean) => t(set ? 'devices.camera.set' : 'devices.camera.notSet');
  return (
    <div data-testid="camera-panel">
      {operate && (
        <Button
          className="roost-devices__add"
          icon={<AddIcon />}
          text={t('devices.action.add')}
          data-testid="camera-add"
          onClick={() => setEditing('new')}
        />
      )}
      <ScrollRegion className="roost-devices__scroll" label={t('devices.tabs.cameras')}>
        <HTMLTable compact striped className="roost-devices__table">
          <thead>
            <tr>
              {['name', 'code', 'vendor', 'channel', 'credentials', 'streamUrl', 'actions'].map(
                (k) => (
                  <th key={k}>{t(`devices.field.${k}` as 'devices.field.name')}</th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {(rows === null || rows.length === 0) && (
              <tr>
                <td colSpan={7} className={Classes.TEXT_MUTED}>
                  {t(rows === null ? 'devices.loading' : 'devices.empty')}
                </td>
              </tr>
            )}
            {rows?.map((c) => (
              <tr key={c.id} data-testid="camera-row">
                <td>{c.name}</td>
                <td>{c.code}</td>
                <td>{t(`devices.camera.vendor.${c.vendor}`)}</td>
                <td>{c.channel}</td>
                <td>{`${t('devices.field.password')}: ${yes(c.hasPassword)}`}</td>
                <td className="roost-devices__url">{c.streamUrl || '—'}</td>
                <td>
                  {operate && (
                    <ButtonGroup variant="minimal">
                      <Button
                        icon={<EditIcon />}
                        aria-label={`${t('devices.action.edit')} ${c.name}`}
                        onClick={() => setEditing(c)}
                      />
                      <Button
                        icon={<TrashIcon />}
                        intent={Intent.DANGER}
                        aria-label={`${t('devices.action.delete')} ${c.name}`}
                        onClick={() => setDeleting(c)}
                      />
                    </ButtonGroup>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
      {editing && (
        <CameraDialog
          houseId={houseId}
          camera={editing === 'new' ? null : editing}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon={<TrashIcon />}
        confirmButtonText={t('devices.action.delete')}
        cancelButtonText={t('devices.action.cancel')}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p data-testid="confirm-delete">
          {t('devices.confirmDelete', {
            name: deleting?.name ?? '',
            remaining: Math.max(0, (rows?.length ?? 1) - 1),
          })}
        </p>
      </Alert>
    </div>
  );
}
