import {
  Button,
  ButtonGroup,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type House, type HouseSort } from '../../stores/HousesStore';
import { STATUS_FILTERS } from '../../stores/houseStatus';
import { HouseCard } from './HouseCard';
import './houses.css';
import { LiveIndicator } from './LiveIndicator';
import { WindowedGrid, type GridEntry } from './WindowedGrid';
import { useStores } from '../useStores';
import { OverviewFilter } from './overview/OverviewFilter';

export const MONITOR_PATH = '/shack/status/monitor';
/** Card box: tall enough for every line of HouseCard. */
const CARD_HEIGHT_PX = 190;
const CARD_MIN_WIDTH_PX = 260;
const keyOfHouse = (house: House) => house.houseId;
const SORTS: HouseSort[] = ['farm', 'name', 'status', 'deviation'];
const SORT_KEYS = {
  farm: 'houses.overview.sortFarm',
  name: 'houses.overview.sortName',
  status: 'houses.overview.sortStatus',
  deviation: 'houses.overview.sortDeviation',
} as const;

const Filters = observer(function Filters({ filter }: { filter: OverviewFilter }) {
  const { t } = useTranslation();
  const counts = filter.counts;
  return (
    <ButtonGroup aria-label={t('houses.overview.filterLabel')} data-testid="status-filters">
      {STATUS_FILTERS.map((key) => (
        <Button
          key={key}
          active={filter.filter === key}
          data-testid={`filter-${key}`}
          onClick={() => filter.setFilter(key)}
          endIcon={
            <Tag minimal round data-testid={`count-${key}`}>
              {counts[key]}
            </Tag>
          }
        >
          {t(`houses.status.${key}`)}
        </Button>
      ))}
    </ButtonGroup>
  );
});

const Toolbar = observer(function Toolbar({ filter }: { filter: OverviewFilter }) {
  const { t } = useTranslation();
  return (
    <div className="roost-houses-toolbar">
      <Filters filter={filter} />
      <InputGroup
        leftIcon={<SearchIcon />}
        placeholder={t('houses.overview.search')}
        aria-label={t('houses.overview.search')}
        value={filter.search}
        data-testid="overview-search"
        onValueChange={(value) => filter.setSearch(value)}
      />
      <Switch
        label={t('houses.overview.groupByFarm')}
        checked={filter.groupByFarm}
        style={{ marginBottom: 0 }}
        data-testid="overview-group"
        onChange={(event) => filter.setGroupByFarm(event.currentTarget.checked)}
      />
      <HTMLSelect
        aria-label={t('houses.overview.sort')}
        value={filter.sort}
        data-testid="overview-sort"
        onChange={(event) => filter.setSort(event.currentTarget.value as HouseSort)}
      >
        {SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {t(SORT_KEYS[sort])}
          </option>
        ))}
      </HTMLSelect>
      <LiveIndicator />
    </div>
  );
});

const Grid = observer(function Grid({ filter }: { filter: OverviewFilter }) {
  const { t } = useTranslation();
  const { houses } = useStores();
  const visible = filter.visible;
  const grouped = filter.groupByFarm;
  const entries = useMemo(() => {
    const list: GridEntry<House>[] = [];
    const perFarm = new Map<number, number>();
    if (grouped) for (const h of visible) perFarm.set(h.farmId, (perFarm.get(h.farmId) ?? 0) + 1);
    let farm: number | null = null;
    for (const house of visible) {
      if (grouped && house.farmId !== farm) {
        farm = house.farmId;
        const count = perFarm.get(farm) ?? 0;
        list.push({
          kind: 'group',
          key: String(farm),
          label: (
            <>
              {house.farmName}
              <Tag minimal round>
                {t('houses.overview.farmHouses', { count })}
              </Tag>
            </>
          ),
        });
      }
      list.push({ kind: 'item', item: house });
    }
    return list;
  }, [visible, grouped, t]);
  if (!houses.loaded)
    return <NonIdealState icon={<Spinner />} title={t('houses.overview.loading')} />;
  if (visible.length === 0) return <NonIdealState title={t('houses.overview.none')} />;
  return (
    <WindowedGrid
      data-testid="house-grid"
      entries={entries}
      keyOf={keyOfHouse}
      renderItem={(house) => (
        <HouseCard house={house} href={`${MONITOR_PATH}?houseId=${house.houseId}`} />
      )}
      rowHeightPx={CARD_HEIGHT_PX}
      minColumnWidthPx={CARD_MIN_WIDTH_PX}
    />
  );
});

/** House overview: one live card per house in scope. */
export const OverviewPage = observer(function OverviewPage() {
  const { houses } = useStores();
  const [filter] = useState(() => new OverviewFilter(houses));
  return (
    <div className="roost-page" data-testid="page-houseOverview">
      <Toolbar filter={filter} />
      <Grid filter={filter} />
    </div>
  );
});
