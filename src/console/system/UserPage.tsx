import { PeopleIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function UserPage() {
  return <ComingSoon area="userManage" icon={PeopleIcon} />;
}
