import { PulseIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function MonitorPage() {
  return <ComingSoon area="shackMonitor" icon={PulseIcon} />;
}
