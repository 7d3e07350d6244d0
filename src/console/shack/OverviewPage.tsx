import { ThIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function OverviewPage() {
  return <ComingSoon area="shackOverview" icon={ThIcon} />;
}
