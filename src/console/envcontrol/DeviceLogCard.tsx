import { useEffect, useState } from 'react';
import { Button, Card, H5, HTMLSelect } from '@blueprintjs/core';
import { DocumentOpenIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { formatTime } from './format';

/**
 * The gateway's device log: "load device log" asks the gateway and shows its recent lines;
 * the last few answers stay to look back at. An offline gateway is refused with a message.
 */
export const DeviceLogCard = observer(function DeviceLogCard({
  store,
}: {
  store: EnvControlStore;
}) {
  const { t } = useTranslation();
  // Asking the gateway for its log is an operating action.
  const { session } = useStores();
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    void store.loadDeviceLogs().catch(() => undefined);
  }, [store, store.houseId]);
  const details = store.details;
  if (!details?.gateway) return null;
  const logs = store.deviceLogs;
  const log = logs.find((l) => l.commandId === shown) ?? logs[0];
  const load = async () => {
    try {
      await store.requestDeviceLog();
    } catch {
      return;
    }
    setShown(null);
    showSuccessToast(t('gatewayOps.log.loaded'));
  };
  return (
    <Card className="roost-envcontrol__wide" data-testid="envcontrol-device-log">
      <H5>{t('gatewayOps.log.title')}</H5>
      <div className="roost-envcontrol__bar">
        <Button
          icon={<DocumentOpenIcon />}
          loading={store.loadingLog}
          disabled={!session.canOperate}
          onClick={() => void load()}
          data-testid="envcontrol-load-log"
        >
          {t('gatewayOps.log.load')}
        </Button>
        {logs.length > 1 && (
          <HTMLSelect
            aria-label={t('gatewayOps.log.earlier')}
            value={log?.commandId ?? ''}
            onChange={(event) => setShown(event.currentTarget.value)}
          >
            {logs.map((l) => (
              <option key={l.commandId} value={l.commandId}>
                {formatTime(l.at)}
              </option>
            ))}
          </HTMLSelect>
        )}
        {!details.gateway.online && (
          <span className="roost-envcontrol__hint">{t('gatewayOps.log.offline')}</span>
        )}
      </div>
      {log ? (
        <>
          <p className="roost-envcontrol__hint">
            {t('gatewayOps.log.at', { when: formatTime(log.at), count: log.lines.length })}
          </p>
          <pre className="roost-envcontrol__log" data-testid="envcontrol-log-lines" tabIndex={0}>
            {log.lines.join('\n')}
          </pre>
        </>
      ) : (
        <p>{t('gatewayOps.log.none')}</p>
      )}
    </Card>
  );
});
