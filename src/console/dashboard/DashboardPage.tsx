import { HomeIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function DashboardPage() {
  return <ComingSoon area="dashboard" icon={HomeIcon} />;
}
