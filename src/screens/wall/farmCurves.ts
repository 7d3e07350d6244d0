import { action, makeObservable, observableRef } from 'mobx';
import { type ApiClient } from '../../api/client';
import { wallFarmCurvesSchema, type WallFarmCurves } from '../../contract/wallRanking';
import { polled } from './wallReads';

/**
 * The drilled farm's houses' last hours of temperature: read when a farm is selected (a touch,
 * the ranking or the tour) and again on the wall's 30 s refresh while it stays selected.
 */
export class FarmCurves {
  curves: WallFarmCurves | null = null;

  constructor(private readonly api: ApiClient) {
    makeObservable(this, { curves: observableRef, load: action });
  }

  async load(farmId: number | null): Promise<void> {
    if (this.curves?.farmId !== farmId) this.curves = null;
    if (farmId === null) return;
    try {
      const curves = await this.api.get(`/wall/farm/${farmId}/curves`, {
        schema: wallFarmCurvesSchema,
        ...polled,
      });
      action(() => (this.curves = curves))();
    } catch {
      // An outage: the rows keep their live values; the curves come with the next refresh.
    }
  }

  /** A house's curve, when the curves read are the drilled farm's. */
  of(farmId: number, houseId: number) {
    if (this.curves?.farmId !== farmId) return null;
    return this.curves.houses.find((h) => h.houseId === houseId) ?? null;
  }
}
