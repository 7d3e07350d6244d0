import { ComparisonIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function ComparedPage() {
  return <ComingSoon area="shackCompared" icon={ComparisonIcon} />;
}
