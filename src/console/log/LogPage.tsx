import { HistoryIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function LogPage() {
  return <ComingSoon area="log" icon={HistoryIcon} />;
}
