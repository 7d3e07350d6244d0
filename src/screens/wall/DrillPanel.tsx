import { Button, Classes } from '@blueprintjs/core';
import { GlobeIcon } from '@blueprintjs/icons';
import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../api/client';
import { type WallState } from '../../contract/wall';
import { figure, NO_FIGURE } from '../../i18n/numbers';
import { CameraGrid } from '../cameras/CameraGrid';
import { MAX_LISTED_FARMS, STATE_HEX } from './constants';
import { FarmLines } from './farmLines';
import { houseState, type WallHouseInput } from './wallModel';
import { everyChange, type WallStore } from './WallStore';
import { HouseCurve } from './HouseCurve';
import { type WallHouseCurve } from '../../contract/wallRanking';

/** The console page a house opens on (coordinated with the house pages: exactly this query). */
export function monitorUrl(houseId: number): string {
  return `/shack/status/monitor?houseId=${houseId}`;
}

export interface DrillPanelProps {
  /** The wall's store. */
  store: WallStore;
  /** Opens the console's monitor of a house; absent on a read-only wall (a kiosk link). */
  onOpenHouse?: (houseId: number) => void;
  /** Shows the farm's house cameras (a signed-in wall; a kiosk link has no camera access). */
  cameraApi?: ApiClient;
}

function Dot({ color }: { color: string }) {
  return <span className="roost-wall__dot" style={{ background: color }} aria-hidden />;
}

/**
 * One farm of an area. Its fields, not its view, as props: views are updated in place (see
 * refreshView), so a memoised row handed the view would keep showing its old state.
 */
const FarmRow = observer(function FarmRow({
  farmId,
  name,
  state,
  houseCount,
  store,
}: {
  farmId: number;
  name: string;
  state: WallState;
  houseCount: number;
  store: WallStore;
}) {
  const { t } = useTranslation();
  return (
    <li>
      <button
        type="button"
        className="roost-wall__row"
        data-testid="drill-farm"
        data-farm-id={farmId}
        data-state={state}
        onClick={() => store.drill.selectFarm(farmId)}
      >
        <Dot color={STATE_HEX[state]} />
        <span className="roost-wall__row-name">{name}</span>
        <span className={Classes.TEXT_MUTED}>{t('wall.drill.houses', { count: houseCount })}</span>
      </button>
    </li>
  );
});

const HouseRow = observer(function HouseRow({
  house,
  curve,
  onOpen,
}: {
  house: WallHouseInput;
  curve: WallHouseCurve | null;
  onOpen?: (houseId: number) => void;
}) {
  const { t } = useTranslation();
  const state = houseState(house);
  const temperature = house.live.metrics['temperature'];
  const humidity = house.live.metrics['humidity'];
  const content = (
    <>
      <Dot color={STATE_HEX[state]} />
      <span className="roost-wall__row-name">{house.houseName}</span>
      <HouseCurve curve={curve} />
      <span data-testid="drill-temperature">
        {temperature === undefined ? NO_FIGURE : `${figure(temperature)} ℃`}
      </span>
      <span className={Classes.TEXT_MUTED}>
        {humidity === undefined ? '—' : `${Math.round(humidity)} %`}
      </span>
    </>
  );
  const common = {
    'data-testid': 'drill-house',
    'data-house-id': house.houseId,
    'data-state': state,
  };
  return (
    <li>
      {onOpen ? (
        <button
          type="button"
          className="roost-wall__row"
          {...common}
          title={t('wall.drill.open')}
          onClick={() => onOpen(house.houseId)}
        >
          {content}
        </button>
      ) : (
        // Read-only wall: the house is shown, not a way into the console.
        <div className="roost-wall__row roost-wall__row--static" {...common}>
          {content}
        </div>
      )}
    </li>
  );
});

/** The drill-down beside the map: an area's farms, then a farm's houses with live values. */
export const DrillPanel = observer(function DrillPanel({
  store,
  onOpenHouse,
  cameraApi,
}: DrillPanelProps) {
  const { t } = useTranslation();
  if (store.drill.region === null && store.drill.farmId === null) return null;
  const farm = store.views.find((f) => f.farmId === store.drill.farmId);
  const farms = store.views.filter((f) => f.region === store.drill.region);
  const houses = farm ? store.housesOf(farm.farmId) : [];
  return (
    <aside className={`roost-wall__drill ${Classes.ELEVATION_3}`} data-testid="wall-drill">
      <div className="roost-wall__drill-head">
        <h2 className="roost-wall__heading" data-testid="drill-title">
          {farm ? farm.name : store.regionName(store.drill.region)}
        </h2>
        <Button
          icon={<GlobeIcon />}
          text={t('wall.drill.whole')}
          data-testid="wall-whole-map"
          onClick={() => store.drill.reset()}
        />
      </div>
      {farm ? (
        <>
          <p className={Classes.TEXT_MUTED}>{t('wall.drill.houses', { count: houses.length })}</p>
          <ul className="roost-wall__list">
            {houses.map((house) => (
              <HouseRow
                key={house.houseId}
                house={house}
                curve={store.curves.of(farm.farmId, house.houseId)}
                onOpen={onOpenHouse}
              />
            ))}
          </ul>
          {cameraApi && <CameraGrid api={cameraApi} houseIds={houses.map((h) => h.houseId)} />}
        </>
      ) : (
        <>
          <p className={Classes.TEXT_MUTED}>{t('wall.drill.farms', { count: farms.length })}</p>
          {farms.length === 0 && <p>{t('wall.drill.noFarms')}</p>}
          <ul className="roost-wall__list">
            {farms.map((f) => (
              <FarmRow
                key={f.farmId}
                farmId={f.farmId}
                name={f.name}
                state={f.worstState}
                houseCount={f.houseCount}
                store={store}
              />
            ))}
          </ul>
        </>
      )}
    </aside>
  );
});

/** The three states' names in the screen's language, made once per language. */
function useStateNames(): Record<WallState, string> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      alarm: t('wall.state.alarm'),
      offline: t('wall.state.offline'),
      normal: t('wall.state.normal'),
    }),
    [t],
  );
}

/**
 * The map's content as text, for screen readers and for tests: the gravest farms' and each
 * area's state, from the same computed values the layers draw. Two lists that render apart:
 * the farms change every second in an alarm storm, the areas seldom, and rendering the areas'
 * names with every farm update cost about a tenth of the wall's script (bench/wall.ts).
 */
export function MapLegendList({ store }: { store: WallStore }) {
  return (
    <div className="roost-wall__sr" data-testid="wall-states">
      <FarmLegend store={store} />
      <RegionLegend store={store} />
    </div>
  );
}

/** The gravest farms' lines, written outside React (FarmLines): no render per live update. */
function FarmLegend({ store }: { store: WallStore }) {
  const stateName = useStateNames();
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const lines = new FarmLines(list.current!, stateName);
    // Every change of the views: the lines compare what they show with the views themselves.
    const dispose = reaction(
      () => store.views,
      (views) => lines.show(views, MAX_LISTED_FARMS),
      { fireImmediately: true, equals: everyChange },
    );
    return () => {
      dispose();
      // A new language makes new lines: these would stay beside them.
      lines.clear();
    };
  }, [store, stateName]);
  return <ul ref={list} />;
}

const RegionLegend = observer(function RegionLegend({ store }: { store: WallStore }) {
  const stateName = useStateNames();
  return (
    <ul>
      {[...store.regionStates].map(([region, state]) => (
        <li key={region} data-region={region} data-state={state}>
          {store.regionName(region)}: {stateName[state]}
        </li>
      ))}
    </ul>
  );
});
