import { SettingsIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function PoultryPage() {
  return <ComingSoon area="poultryManage" icon={SettingsIcon} />;
}
