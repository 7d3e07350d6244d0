import {
  Alert,
  Button,
  Callout,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  FormGroup,
  HTMLTable,
  InputGroup,
  Intent,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KIOSK_NAME_MAX, KIOSK_SCREEN_PATH, type KioskLink } from '../../contract/wallKiosk';
import { formatDateTime } from '../../i18n/dates';
import { KioskLinksStore } from '../../stores/KioskLinksStore';
import { useStores } from '../useStores';
import {
  DEFAULT_DISPLAY,
  DisplaySummary,
  KioskDisplayDialog,
  KioskDisplayForm,
} from './KioskDisplayForm';
import type { WallDisplay } from '../../contract/wallLayout';

/** The address a kiosk browser opens: the token in the fragment, never sent in a request. */
export function kioskAddress(origin: string, language: 'en' | 'zh', token: string): string {
  return `${origin}${KIOSK_SCREEN_PATH}?language=${language === 'en' ? 1 : 0}#${token}`;
}

/** A failure was already shown by the API client (its toast); the dialog stays as it was. */
const shown = () => undefined;

export interface KioskLinksDialogProps {
  isOpen: boolean;
  onClose: () => void;
}

/**
 * Kiosk links of the wall: create one with its scope (every farm, or chosen farms),
 * see the link once, list and revoke them. Administrators only (the page and the API both say so).
 */
export const KioskLinksDialog = observer(function KioskLinksDialog({
  isOpen,
  onClose,
}: KioskLinksDialogProps) {
  const { t } = useTranslation();
  const { api, ui } = useStores();
  const [kiosks] = useState(() => new KioskLinksStore(api));
  const { links, farms } = kiosks;
  const [name, setName] = useState('');
  const [allFarms, setAllFarms] = useState(true);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<KioskLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [display, setDisplay] = useState<WallDisplay>(DEFAULT_DISPLAY);
  const [editing, setEditing] = useState<KioskLink | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    void kiosks.load().catch(shown);
    void kiosks.loadFarms().catch(shown);
  }, [isOpen, kiosks]);

  const canCreate = name.trim() !== '' && (allFarms || chosen.size > 0) && !busy;
  const create = async () => {
    setBusy(true);
    try {
      const answer = await kiosks.create({
        name: name.trim(),
        allFarms,
        farmIds: allFarms ? [] : [...chosen],
        ...display,
      });
      setCreated(kioskAddress(window.location.origin, ui.language, answer.token));
      setCopied(false);
      setName('');
      setChosen(new Set());
      setDisplay(DEFAULT_DISPLAY);
    } catch {
      shown();
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (link: KioskLink) => {
    setRevoking(null);
    try {
      await kiosks.revoke(link.id);
    } catch {
      shown();
    }
  };
  const toggleFarm = (farmId: number) =>
    setChosen((now) => {
      const next = new Set(now);
      if (!next.delete(farmId)) next.add(farmId);
      return next;
    });
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('wall.kiosk.never'));

  return (
    <Dialog
      isOpen={isOpen}
      onClose={() => {
        setCreated(null);
        onClose();
      }}
      title={t('wall.kiosk.title')}
      style={{ width: 760 }}
      data-testid="kiosk-dialog"
    >
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>{t('wall.kiosk.intro')}</p>
        <FormGroup label={t('wall.kiosk.name')} labelFor="kiosk-name">
          <InputGroup
            id="kiosk-name"
            data-testid="kiosk-name"
            maxLength={KIOSK_NAME_MAX}
            placeholder={t('wall.kiosk.namePlaceholder')}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </FormGroup>
        <RadioGroup
          label={t('wall.kiosk.scope')}
          inline
          selectedValue={allFarms ? 'all' : 'chosen'}
          onChange={(e) => setAllFarms(e.currentTarget.value === 'all')}
        >
          <Radio value="all" label={t('wall.kiosk.allFarms')} data-testid="kiosk-scope-all" />
          <Radio
            value="chosen"
            label={t('wall.kiosk.chosenFarms')}
            data-testid="kiosk-scope-chosen"
          />
        </RadioGroup>
        {!allFarms && (
          <div
            data-testid="kiosk-farms"
            style={{ maxHeight: 200, overflowY: 'auto', columns: 2, marginBottom: 12 }}
          >
            {farms.map((farm) => (
              <Checkbox
                key={farm.farmId}
                label={farm.name}
                data-farm-id={farm.farmId}
                checked={chosen.has(farm.farmId)}
                onChange={() => toggleFarm(farm.farmId)}
              />
            ))}
          </div>
        )}
        <KioskDisplayForm value={display} onChange={setDisplay} />
        <Button
          intent={Intent.PRIMARY}
          text={t('wall.kiosk.create')}
          data-testid="kiosk-create"
          disabled={!canCreate}
          loading={busy}
          onClick={() => void create()}
        />
        {created && (
          <Callout intent={Intent.SUCCESS} style={{ marginTop: 12 }} data-testid="kiosk-created">
            <p>{t('wall.kiosk.created')}</p>
            <InputGroup
              readOnly
              value={created}
              data-testid="kiosk-url"
              onFocus={(e) => e.currentTarget.select()}
              rightElement={
                <Button
                  variant="minimal"
                  text={copied ? t('wall.kiosk.copied') : t('wall.kiosk.copy')}
                  onClick={() =>
                    void navigator.clipboard?.writeText(created).then(() => setCopied(true))
                  }
                />
              }
            />
          </Callout>
        )}
        <h4 className={Classes.HEADING} style={{ marginTop: 20 }}>
          {t('wall.kiosk.list')}
        </h4>
        {links !== null && links.length === 0 ? (
          <p className={Classes.TEXT_MUTED}>{t('wall.kiosk.empty')}</p>
        ) : (
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="kiosk-list">
            <thead>
              <tr>
                <th>{t('wall.kiosk.name')}</th>
                <th>{t('wall.kiosk.scope')}</th>
                <th>{t('wall.kiosk.display')}</th>
                <th>{t('wall.kiosk.createdBy')}</th>
                <th>{t('wall.kiosk.createdAt')}</th>
                <th>{t('wall.kiosk.lastUsed')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(links ?? []).map((link) => (
                <tr key={link.id} data-kiosk-id={link.id}>
                  <td>{link.name}</td>
                  <td>
                    {link.allFarms
                      ? t('wall.kiosk.allFarms')
                      : link.farms.map((f) => f.name).join(', ')}
                  </td>
                  <td>
                    <DisplaySummary link={link} />{' '}
                    <Button
                      size="small"
                      variant="minimal"
                      text={t('wall.kiosk.edit')}
                      data-testid="kiosk-edit"
                      onClick={() => setEditing(link)}
                    />
                  </td>
                  <td>{link.createdBy}</td>
                  <td>{when(link.createdAt)}</td>
                  <td>{when(link.lastUsedAt)}</td>
                  <td>
                    <Button
                      size="small"
                      intent={Intent.DANGER}
                      text={t('wall.kiosk.revoke')}
                      data-testid="kiosk-revoke"
                      onClick={() => setRevoking(link)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
      {editing && (
        <KioskDisplayDialog
          link={editing}
          onSave={(next) => kiosks.saveDisplay(editing.id, next)}
          onClose={() => setEditing(null)}
        />
      )}
      <Alert
        isOpen={revoking !== null}
        intent={Intent.DANGER}
        confirmButtonText={t('wall.kiosk.revoke')}
        cancelButtonText={t('wall.kiosk.cancel')}
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p data-testid="kiosk-revoke-confirm">
          {t('wall.kiosk.revokeConfirm', { name: revoking?.name ?? '' })}
        </p>
      </Alert>
    </Dialog>
  );
});
