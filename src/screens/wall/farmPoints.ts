import { type WallFarm, type WallState } from '../../contract/wall';
import { POINT_BASE_PX, POINT_PER_SQRT_HOUSE_PX, STATE_RGB } from './constants';
import { type IdMarks } from './idMarks';
import { type FarmView } from './wallModel';

/** A farm's point radius in pixels at the design width: grows with its house count. */
export function radiusOf(farm: Pick<WallFarm, 'houseCount'>): number {
  return POINT_BASE_PX + POINT_PER_SQRT_HOUSE_PX * Math.sqrt(farm.houseCount);
}

const STATE_CODE: Record<WallState, number> = { normal: 0, offline: 1, alarm: 2 };

/** deck.gl's binary data: a length and one typed array per attribute. */
export interface FarmPointsData {
  length: number;
  attributes: {
    getPosition: { value: Float64Array; size: 2 };
    getFillColor: { value: Uint8Array; size: 4; normalized: true };
    getRadius: { value: Float32Array; size: 1 };
  };
}

/**
 * The farm points as deck.gl binary attributes, one row per farm with a place. A live update
 * compares each farm's state and size with its row and writes only the rows that changed, in
 * place. deck.gl uploads an attribute only when handed an array it has not seen, so the changed
 * colour and radius arrays go out as new views (`subarray`) of the same memory: nothing is
 * copied or allocated per farm. Positions keep their array until the farms are fetched again.
 */
export class FarmPoints {
  /** The farms drawn, in row order (picking answers a row index). */
  readonly farms: WallFarm[];
  data: FarmPointsData;
  /** Row of each farm of the store's list (the views come in that order), -1 without a place. */
  private readonly rowOf: Int32Array;
  private states: Uint8Array;
  private houseCounts: Int32Array;

  constructor(all: readonly WallFarm[]) {
    this.farms = [];
    this.rowOf = new Int32Array(all.length).fill(-1);
    all.forEach((farm, i) => {
      if (farm.longitude === null || farm.latitude === null) return;
      this.rowOf[i] = this.farms.length;
      this.farms.push(farm);
    });
    const n = this.farms.length;
    const positions = new Float64Array(2 * n);
    this.states = new Uint8Array(n);
    this.houseCounts = new Int32Array(n);
    const colors = new Uint8Array(4 * n);
    const radii = new Float32Array(n);
    this.farms.forEach((farm, row) => {
      positions[2 * row] = farm.longitude ?? 0;
      positions[2 * row + 1] = farm.latitude ?? 0;
      this.write(row, farm.worstState, farm.houseCount, colors, radii);
    });
    this.data = {
      length: n,
      attributes: {
        getPosition: { value: positions, size: 2 },
        getFillColor: { value: colors, size: 4, normalized: true },
        getRadius: { value: radii, size: 1 },
      },
    };
  }

  /**
   * Writes the views' states and sizes; true when a point changed (new views handed out).
   * `only`: the indices of the views that may have changed (FarmViewList.changedSince); without
   * it every view is compared with its row.
   */
  update(views: readonly FarmView[], only?: Pick<IdMarks, 'forEach'> | null): boolean {
    const { attributes } = this.data;
    const colors = attributes.getFillColor.value;
    const radii = attributes.getRadius.value;
    let changed = false;
    const count = Math.min(views.length, this.rowOf.length);
    const visit = (i: number) => {
      const row = i < count ? this.rowOf[i]! : -1;
      const view = views[i];
      if (row < 0 || !view) return;
      if (
        this.states[row] === STATE_CODE[view.worstState] &&
        this.houseCounts[row] === view.houseCount
      )
        return;
      this.write(row, view.worstState, view.houseCount, colors, radii);
      changed = true;
    };
    if (only) only.forEach(visit);
    else for (let i = 0; i < count; i += 1) visit(i);
    if (!changed) return false;
    this.data = {
      length: this.data.length,
      attributes: {
        getPosition: attributes.getPosition,
        getFillColor: { value: colors.subarray(0), size: 4, normalized: true },
        getRadius: { value: radii.subarray(0), size: 1 },
      },
    };
    return true;
  }

  private write(
    row: number,
    state: WallState,
    houseCount: number,
    colors: Uint8Array,
    radii: Float32Array,
  ): void {
    const rgb = STATE_RGB[state];
    const at = 4 * row;
    colors[at] = rgb[0];
    colors[at + 1] = rgb[1];
    colors[at + 2] = rgb[2];
    colors[at + 3] = 255;
    radii[row] = radiusOf({ houseCount });
    this.states[row] = STATE_CODE[state];
    this.houseCounts[row] = houseCount;
  }
}
