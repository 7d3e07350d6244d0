import { CameraGrid } from '../../screens/cameras/CameraGrid';
import { useStores } from '../useStores';

/** The house monitor's live view of the house's cameras. */
export function MonitorCameras({ houseId }: { houseId: number }) {
  const { api } = useStores();
  return <CameraGrid api={api} houseIds={[houseId]} />;
}
