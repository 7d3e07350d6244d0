import { Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type LiveState } from '../../stores/LiveStore';
import { useStores } from '../useStores';

const INTENTS: Record<LiveState, Intent> = {
  idle: Intent.NONE,
  connecting: Intent.PRIMARY,
  live: Intent.SUCCESS,
  polling: Intent.WARNING,
  offline: Intent.DANGER,
};

/** The live ↔ poll state, on screen (connecting → live → polling). */
export const LiveIndicator = observer(function LiveIndicator() {
  const { live } = useStores();
  const { t } = useTranslation();
  return (
    <Tag
      minimal
      round
      intent={INTENTS[live.state]}
      data-testid="live-indicator"
      data-state={live.state}
      role="status"
    >
      {t(`houses.live.${live.state}`)}
    </Tag>
  );
});
