import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, HTMLSelect, InputGroup, Intent, NonIdealState } from '@blueprintjs/core';
import {
  AutomaticUpdatesIcon,
  CloudUploadIcon,
  DashboardIcon,
  DuplicateIcon,
  ClipboardIcon,
  SearchIcon,
  SendMessageIcon,
  UndoIcon,
} from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import { AI6000_TYPE } from './ai6000Type';
import { CommandsCard, RecordsCard } from './CommandsCard';
import { DeviceLogCard } from './DeviceLogCard';
import { GatewayCard, OnlineLogCard, SyncCard } from './GatewayCard';
import { ParamsCard } from './ParamsCard';
import { SendDialog } from './SendDialog';
import { UpgradeDialog, UpgradeStatus } from './UpgradeDialog';
import { UpgradeFilesCard } from './UpgradeFilesCard';
import { useExecutionToast } from './useExecutionToast';
import './envcontrol.css';

/** /envcontrol/index: House Setting — a house's gateway, its parameters and their commands. */
export const EnvControlPage = observer(function EnvControlPage() {
  const { t } = useTranslation();
  const { houses, envcontrol: store } = useStores();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const raw = Number(params.get('houseId'));
  const houseId = Number.isInteger(raw) && raw > 0 ? raw : null;
  const [search, setSearch] = useState('');
  const [sending, setSending] = useState(false);
  const [pasting, setPasting] = useState(false);
  const [auto, setAuto] = useState(false);
  const [upgrading, setUpgrading] = useState(false);
  const noteSent = useExecutionToast(store);
  const pageRef = useRef<HTMLDivElement>(null);
  const sendButtonRef = useRef<HTMLButtonElement>(null);
  // The send dialog is unmounted when it closes, so Blueprint cannot give focus back and it
  // fell to <body>: where it goes is set when the dialog closes and done once it has gone.
  const focusAfterSend = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (sending) return;
    focusAfterSend.current?.();
    focusAfterSend.current = null;
  }, [sending]);
  const closeSendDialog = () => {
    focusAfterSend.current = () => sendButtonRef.current?.focus();
    setSending(false);
  };

  useEffect(() => {
    if (houseId !== null) void store.load(houseId).catch(() => undefined);
  }, [store, houseId]);

  const needle = search.trim().toLowerCase();
  const options = houses.all.filter(
    (h) =>
      !needle ||
      h.houseName.toLowerCase().includes(needle) ||
      h.farmName.toLowerCase().includes(needle) ||
      h.houseId === houseId,
  );
  const farms = useMemo(() => {
    const byFarm = new Map<string, typeof options>();
    for (const h of options) byFarm.set(h.farmName, [...(byFarm.get(h.farmName) ?? []), h]);
    return [...byFarm.entries()];
  }, [options]);

  const details = houseId !== null && store.houseId === houseId ? store.details : null;
  const farmHouses = details
    ? houses.all
        .filter((h) => h.farmId === details.farmId && h.houseId !== details.houseId)
        .map((h) => ({ houseId: h.houseId, houseName: h.houseName }))
    : [];

  const send = async (alsoTo: number[]) => {
    // Sent, the change is no longer a draft and Send is disabled: focus goes to the field of
    // the first parameter changed.
    const edited = store.diff[0]?.spec.key;
    focusAfterSend.current = () =>
      pageRef.current?.querySelector<HTMLElement>(`[data-testid="param-${edited}"] input`)?.focus();
    setSending(false);
    try {
      noteSent(await store.send(alsoTo));
    } catch {
      return;
    }
    showSuccessToast(t('envcontrol.actions.sent'));
  };
  const fillFromBreed = async () => {
    setAuto(false);
    let filled: number;
    try {
      filled = await store.autoConfig();
    } catch {
      return;
    }
    showToast({
      message: t(filled > 0 ? 'envcontrol.actions.autoDone' : 'envcontrol.actions.autoNone'),
      intent: filled > 0 ? Intent.SUCCESS : Intent.WARNING,
      timeoutMs: NOTIFICATION_MS,
    });
  };
  const upgrade = async (sha256: string) => {
    setUpgrading(false);
    try {
      await store.upgrade(sha256);
    } catch {
      return;
    }
    showSuccessToast(t('gatewayOps.upgrade.sent'));
  };
  const copy = () => {
    store.copy();
    showSuccessToast(t('envcontrol.actions.copied'));
  };

  return (
    <div className="roost-page" data-testid="page-envControl" ref={pageRef}>
      <div className="roost-envcontrol__bar">
        <InputGroup
          leftIcon={<SearchIcon />}
          placeholder={t('envcontrol.search')}
          aria-label={t('envcontrol.search')}
          value={search}
          onValueChange={setSearch}
        />
        <HTMLSelect
          aria-label={t('envcontrol.pick')}
          value={houseId ?? ''}
          data-testid="envcontrol-picker"
          onChange={(event) => setParams({ houseId: event.currentTarget.value })}
        >
          <option value="">{t('envcontrol.pickPlaceholder')}</option>
          {farms.map(([farm, list]) => (
            <optgroup key={farm} label={farm}>
              {list.map((h) => (
                <option key={h.houseId} value={h.houseId}>
                  {h.houseName}
                </option>
              ))}
            </optgroup>
          ))}
        </HTMLSelect>
        {details && (
          <strong data-testid="envcontrol-title">
            {details.farmName} / {details.houseName}
          </strong>
        )}
        {details?.gateway?.typeKey === AI6000_TYPE && (
          <Button
            icon={<DashboardIcon />}
            onClick={() => void navigate(`/envcontrol/ai6000?houseId=${details.houseId}`)}
            data-testid="envcontrol-ai6000"
          >
            {t('gatewayOps.ai6000.open')}
          </Button>
        )}
      </div>
      {!details ? (
        <NonIdealState
          title={
            houseId !== null && store.missing ? t('envcontrol.notFound') : t('envcontrol.choose')
          }
        />
      ) : (
        <div className="roost-envcontrol">
          <div className="roost-envcontrol__stack">
            <GatewayCard store={store} />
            <UpgradeStatus store={store} />
            {details.gateway && details.canSend && (
              <Button
                icon={<CloudUploadIcon />}
                onClick={() => setUpgrading(true)}
                data-testid="envcontrol-upgrade"
              >
                {t('gatewayOps.upgrade.action')}
              </Button>
            )}
          </div>
          <SyncCard store={store} />
          <OnlineLogCard store={store} />
          {details.gateway && (
            <div className="roost-envcontrol__wide">
              <ParamsCard store={store} />
              <div className="roost-envcontrol__actions">
                {details.canSend && (
                  <Button
                    intent={Intent.PRIMARY}
                    icon={<SendMessageIcon />}
                    // The dialog offers the farm's other houses: opened before they are known,
                    // it would grow under the pointer when they arrive.
                    disabled={!store.canSubmit || !houses.loaded}
                    onClick={() => setSending(true)}
                    ref={sendButtonRef}
                    data-testid="envcontrol-send"
                  >
                    {t('envcontrol.actions.send')}
                  </Button>
                )}
                {details.canSend && (
                  <Button
                    icon={<UndoIcon />}
                    disabled={Object.keys(store.draft).length === 0}
                    onClick={() => store.discard()}
                  >
                    {t('envcontrol.actions.reset')}
                  </Button>
                )}
                {details.canSend && (
                  <Button
                    icon={<AutomaticUpdatesIcon />}
                    onClick={() => setAuto(true)}
                    data-testid="envcontrol-auto"
                  >
                    {t('envcontrol.actions.autoConfig')}
                  </Button>
                )}
                <Button icon={<DuplicateIcon />} onClick={copy} data-testid="envcontrol-copy">
                  {t('envcontrol.actions.copy')}
                </Button>
                {details.canSend && (
                  <Button
                    icon={<ClipboardIcon />}
                    disabled={!store.clipboard}
                    onClick={() => setPasting(true)}
                    data-testid="envcontrol-paste"
                  >
                    {t('envcontrol.actions.paste')}
                  </Button>
                )}
              </div>
            </div>
          )}
          <DeviceLogCard store={store} />
          <CommandsCard store={store} />
          <RecordsCard store={store} />
        </div>
      )}
      {/* Not tied to the house chosen: the files every gateway of a model can be sent. */}
      <UpgradeFilesCard />
      {sending && details && (
        <SendDialog
          store={store}
          farmHouses={farmHouses}
          farmName={details.farmName}
          onClose={closeSendDialog}
          onSend={(alsoTo) => void send(alsoTo)}
        />
      )}
      {upgrading && details && (
        <UpgradeDialog
          store={store}
          onClose={() => setUpgrading(false)}
          onUpgrade={(sha256) => void upgrade(sha256)}
        />
      )}
      <Alert
        isOpen={auto}
        intent={Intent.PRIMARY}
        confirmButtonText={t('envcontrol.actions.autoConfig')}
        cancelButtonText={t('envcontrol.actions.cancel')}
        onConfirm={() => void fillFromBreed()}
        onCancel={() => setAuto(false)}
      >
        {t('envcontrol.actions.autoConfirm')}
      </Alert>
      <Alert
        isOpen={pasting}
        intent={Intent.WARNING}
        confirmButtonText={t('envcontrol.actions.paste')}
        cancelButtonText={t('envcontrol.actions.cancel')}
        onConfirm={() => {
          setPasting(false);
          store.paste();
        }}
        onCancel={() => setPasting(false)}
      >
        {t('envcontrol.actions.pasteConfirm')}
      </Alert>
    </div>
  );
});
