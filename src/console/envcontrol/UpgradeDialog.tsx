import { useEffect, useState } from 'react';
import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLSelect,
  Intent,
  ProgressBar,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type TFunction } from 'i18next';
import { FINAL_STATES, type Command } from '../../contract/envcontrol';
import { gatewayTypeName } from '../../contract/gatewayTypes';
import { UPGRADE_NO_UPDATE } from '../../contract/gateway';
import { fileFitsType } from '../../contract/upgrade';
import { type EnvControlStore } from '../../stores/EnvControlStore';

/** What an upgrade command asks, in words: "Upgrade 2.8.4 → 2.9.0". */
export function upgradeValues(t: TFunction, command: Command): string {
  const u = command.upgrade;
  return u ? t('gatewayOps.upgrade.values', { from: u.fromVersion || '—', to: u.version }) : '';
}

/** Where an upgrade stands or how it ended, in words. */
export function upgradeResult(t: TFunction, command: Command): string {
  const u = command.upgrade;
  if (!u) return '';
  switch (command.state) {
    case 'applied':
      return t('gatewayOps.upgrade.stage.done', { version: u.version });
    case 'rejected':
      return command.reason === UPGRADE_NO_UPDATE
        ? t('gatewayOps.upgrade.noUpdates')
        : t('gatewayOps.upgrade.failed', { reason: command.reason ?? '' });
    case 'expired':
      return t('envcontrol.commands.expired');
    case 'superseded':
      return t('envcontrol.commands.superseded');
    default:
      if (!u.stage) return t('gatewayOps.upgrade.waiting');
      return t(`gatewayOps.upgrade.stage.${u.stage}`, {
        percent: u.percent ?? 0,
        version: u.version,
      });
  }
}

/**
 * The house's latest upgrade while it runs (a bar that moves with the gateway's reports) and
 * how it ended, until the next one.
 */
export const UpgradeStatus = observer(function UpgradeStatus({
  store,
}: {
  store: EnvControlStore;
}) {
  const { t } = useTranslation();
  const command = store.lastUpgrade;
  if (!command?.upgrade) return null;
  const running = !FINAL_STATES.includes(command.state);
  const failed = command.state === 'rejected' || command.state === 'expired';
  const stage = command.upgrade.stage;
  const value =
    stage === 'downloading'
      ? ((command.upgrade.percent ?? 0) / 100) * 0.7
      : stage === 'installing'
        ? 0.8
        : stage === 'restarting'
          ? 0.9
          : 0;
  return (
    <Callout
      intent={running ? Intent.PRIMARY : failed ? Intent.DANGER : Intent.SUCCESS}
      className="roost-envcontrol__upgrade"
      data-testid="envcontrol-upgrade-status"
      data-state={command.state}
    >
      {running && (
        <strong>{t('gatewayOps.upgrade.running', { version: command.upgrade.version })}</strong>
      )}
      <div data-testid="envcontrol-upgrade-result">{upgradeResult(t, command)}</div>
      {running && (
        <ProgressBar intent={Intent.PRIMARY} value={stage ? value : undefined} animate stripes />
      )}
    </Callout>
  );
});

export interface UpgradeDialogProps {
  store: EnvControlStore;
  onClose(): void;
  onUpgrade(sha256: string): void;
}

/**
 * Choose a stored file made for this gateway's type (the server refuses any other), then
 * confirm the upgrade (the product asks before an upgrade).
 */
export const UpgradeDialog = observer(function UpgradeDialog(props: UpgradeDialogProps) {
  const { store, onClose, onUpgrade } = props;
  const { t, i18n } = useTranslation();
  const [sha256, setSha256] = useState('');
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    void store.loadUpgradeFiles().catch(() => undefined);
  }, [store]);
  const details = store.details;
  const current = details?.gateway?.version ?? '';
  const typeKey = details?.gateway?.typeKey ?? null;
  const model = typeKey === null ? '—' : gatewayTypeName(typeKey, i18n.language);
  const files = store.upgradeFiles.filter((f) => fileFitsType(f, typeKey));
  const file = files.find((f) => f.sha256 === sha256);
  return (
    <Dialog isOpen title={t('gatewayOps.upgrade.title')} onClose={onClose}>
      <DialogBody>
        <div data-testid="envcontrol-upgrade-dialog">
          <p>{t('gatewayOps.upgrade.current', { version: current || '—' })}</p>
          <p>{t('gatewayOps.upgrade.model', { model })}</p>
          {store.upgradeFiles.length === 0 ? (
            <p>{t('gatewayOps.upgrade.none')}</p>
          ) : files.length === 0 ? (
            <p data-testid="envcontrol-upgrade-none-for-type">
              {t('gatewayOps.upgrade.noneForType', { model })}
            </p>
          ) : (
            <HTMLSelect
              fill
              aria-label={t('gatewayOps.upgrade.file')}
              value={sha256}
              data-testid="envcontrol-upgrade-file"
              onChange={(event) => {
                setSha256(event.currentTarget.value);
                setConfirming(false);
              }}
            >
              <option value="">{t('gatewayOps.upgrade.choose')}</option>
              {files.map((f) => (
                <option key={f.sha256} value={f.sha256}>
                  {f.version === current
                    ? t('gatewayOps.upgrade.installed', { version: f.version })
                    : f.version}{' '}
                  · {f.fileName} · {Math.ceil(f.size / 1024)} KB
                </option>
              ))}
            </HTMLSelect>
          )}
          {confirming && file && details && (
            <Callout intent={Intent.WARNING} data-testid="envcontrol-upgrade-confirm">
              {t('gatewayOps.upgrade.confirm', {
                house: details.houseName,
                from: current || '—',
                to: file.version,
              })}
            </Callout>
          )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('gatewayOps.upgrade.cancel')}</Button>
            <Button
              intent={confirming ? Intent.WARNING : Intent.PRIMARY}
              disabled={!file}
              data-testid="envcontrol-upgrade-send"
              onClick={() => (confirming ? onUpgrade(sha256) : setConfirming(true))}
            >
              {t('gatewayOps.upgrade.send')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
});
