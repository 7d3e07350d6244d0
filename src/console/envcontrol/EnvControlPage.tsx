import { TemperatureIcon } from '@blueprintjs/icons';
import { ComingSoon } from '../pages/ComingSoon';

export function EnvControlPage() {
  return <ComingSoon area="envControl" icon={TemperatureIcon} />;
}
