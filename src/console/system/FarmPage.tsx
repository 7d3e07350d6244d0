import { TreeIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function FarmPage() {
  return <ComingSoon area="farmManage" icon={TreeIcon} />;
}
