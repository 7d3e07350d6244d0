import { Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { type DeviceStatus, type MaintenanceState } from '../../contract/devices';

const STATUS_INTENT: Record<DeviceStatus, Intent> = {
  online: Intent.SUCCESS,
  offline: Intent.NONE,
  fault: Intent.DANGER,
};
const STATE_INTENT: Record<MaintenanceState, Intent> = {
  ok: Intent.NONE,
  due: Intent.WARNING,
  overdue: Intent.DANGER,
};

/** A device's live status as a coloured tag. */
export function StatusTag({ status }: { status: DeviceStatus }) {
  const { t } = useTranslation();
  return (
    <Tag minimal intent={STATUS_INTENT[status]} data-status={status}>
      {t(`devices.status.${status}`)}
    </Tag>
  );
}

/** A maintenance plan's state today as a coloured tag. */
export function PlanStateTag({ state }: { state: MaintenanceState }) {
  const { t } = useTranslation();
  return (
    <Tag minimal={state === 'ok'} intent={STATE_INTENT[state]} data-state={state}>
      {t(`devices.planState.${state}`)}
    </Tag>
  );
}
