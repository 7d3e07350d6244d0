import type { ReactNode } from 'react';
import type { WallPanelId } from '../../contract/wallLayout';
import { WallAlarmList } from './WallAlarmList';
import { WallNight } from './WallNight';
import { WallCounters, WallLegend, WallTicker, WallToday } from './WallPanels';
import { WallProductionPanel } from './WallProduction';
import { WallRanking } from './WallRanking';
import type { WallStore } from './WallStore';
import type { NightStory } from './nightStory';
import type { OpenAlarms } from './openAlarms';

/** What the wall's panels read: the store, the night story and the list of open alarms. */
export interface PanelSources {
  store: WallStore;
  night: NightStory;
  open: OpenAlarms;
}

/** Each panel a layout may name, by its id: the one place a new panel joins the wall. */
export const PANEL_REGISTRY: Record<WallPanelId, (s: PanelSources) => ReactNode> = {
  counters: ({ store }) => <WallCounters store={store} />,
  today: ({ store }) => <WallToday store={store} />,
  night: ({ night }) => <WallNight story={night} />,
  ranking: ({ store }) => <WallRanking store={store} />,
  legend: () => <WallLegend />,
  alarms: ({ store, open }) => <WallAlarmList store={store} open={open} />,
  production: ({ store }) => <WallProductionPanel store={store} />,
  ticker: ({ store }) => <WallTicker store={store} />,
};

/**
 * A column's panels in the layout's order. Each sits in a slot that takes no room of its own
 * (display: contents), so the column lays the panels out as before; a spotlit slot lifts its
 * panel over the map.
 */
export function PanelColumn({
  ids,
  sources,
  spotlit,
}: {
  ids: readonly WallPanelId[];
  sources: PanelSources;
  spotlit: WallPanelId | null;
}) {
  return ids.map((id) => (
    <div
      key={id}
      className={`roost-wall__slot${id === spotlit ? ' roost-wall__slot--spotlit' : ''}`}
      data-panel={id}
      data-spotlit={id === spotlit}
    >
      {PANEL_REGISTRY[id](sources)}
    </div>
  ));
}
