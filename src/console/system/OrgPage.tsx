import { OfficeIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function OrgPage() {
  return <ComingSoon area="orgManage" icon={OfficeIcon} />;
}
