import { type PickingInfo } from '@deck.gl/core';
import { GeoJsonLayer, ScatterplotLayer } from '@deck.gl/layers';
import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { reaction, untracked } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Map, Marker, type MapRef } from 'react-map-gl/maplibre';
import type { Feature } from 'geojson';
import { type WallFarm } from '../../contract/wall';
import { type AreaGeometry, type ChinaCityCollection, type LngLat } from '../geo/geoTypes';
import { DESIGN_WIDTH_PX, POINT_BASE_PX, POINT_PER_SQRT_HOUSE_PX, STATE_RGB } from './constants';
import { DeckOverlay } from './DeckOverlay';
import { wallMapStyle } from './mapStyle';
import { boundsOf } from './wallModel';
import { type WallStore } from './WallStore';

// Vite does not emit maplibre 6's worker (the map stays blank); hand it the URL of the file it
// emits.
setWorkerUrl(workerUrl);

type AreaFeature = Feature<AreaGeometry, { adcode?: string; id?: string }>;

/**
 * The whole map: fitted to the wall whatever its size (1080p or 4K), China with its southern
 * islands, the World without Antarctica.
 */
const CHINA_BOUNDS: [LngLat, LngLat] = [
  [73, 3.5],
  [135.1, 53.6],
];
const WORLD_BOUNDS: [LngLat, LngLat] = [
  [-170, -58],
  [180, 80],
];
/** Fitting a drilled area leaves room for the side panel and the edges. */
const FIT_PADDING_PX = 60;
/** Zoom on one farm: its houses' surroundings, a county or so. */
const FARM_ZOOM = 7;
/** Camera moves are short: a wall is read, not browsed. */
const FLY_DURATION_MS = 800;
/** Fill alpha of a region by state: alarms must read from across the room, normal stays quiet. */
const REGION_ALPHA = { alarm: 150, offline: 70, normal: 40 } as const;

interface Camera {
  longitude: number;
  latitude: number;
  zoom: number;
}

function cameraOf(map: { getCenter(): { lng: number; lat: number }; getZoom(): number }): Camera {
  const { lng, lat } = map.getCenter();
  return { longitude: lng, latitude: lat, zoom: map.getZoom() };
}

/**
 * Farms with an unacknowledged alarm pulse as DOM markers with a CSS animation: the compositor
 * draws it, so a pulse never re-renders the WebGL map. Beyond this many, the rest stay still.
 */
const MAX_PULSE_MARKERS = 100;

/** A farm's point radius in pixels: grows with its house count and with the wall's width. */
function radiusOf(farm: Pick<WallFarm, 'houseCount'>, scale: number): number {
  return (POINT_BASE_PX + POINT_PER_SQRT_HOUSE_PX * Math.sqrt(farm.houseCount)) * scale;
}

const regionKey = (f: AreaFeature) => f.properties.adcode ?? f.properties.id ?? '';

export interface WallMapProps {
  /** The wall's store: regions, farms, selection. */
  store: WallStore;
}

/** The map: regions shaded by their worst farm, farms as points; picking drives the drill-down. */
export const WallMap = observer(function WallMap({ store }: WallMapProps) {
  const mapRef = useRef<MapRef>(null);
  const [loaded, setLoaded] = useState(false);
  const [rendered, setRendered] = useState(false);
  /** The camera after its last move, on the container for tests and diagnostics. */
  const [view, setView] = useState<Camera | null>(null);
  const [cities, setCities] = useState<ChinaCityCollection | null>(null);
  const { regions, mapType, selectedRegion, selectedFarmId } = store;
  const world = mapType === '2';
  const style = useMemo(() => (regions ? wallMapStyle(regions) : null), [regions]);
  const views = store.views;
  const states = store.regionStates;
  const scale = Math.max(0.5, window.innerWidth / DESIGN_WIDTH_PX);
  // The points' data changes only when the farms do (a refetch); a live update changes their
  // colour (and rarely their size), so deck.gl recomputes those attributes only, and only when a
  // state really changed: at 10,000 farms a full rebuild each second costs more than the draw.
  const farms = store.farms;
  const placed = useMemo(
    () => farms.filter((f) => f.longitude !== null && f.latitude !== null),
    [farms],
  );
  // globalThis: `Map` here is react-map-gl's component.
  const viewOf = useMemo(() => new globalThis.Map(views.map((v) => [v.farmId, v])), [views]);
  const viewOfRef = useRef(viewOf);
  viewOfRef.current = viewOf;
  const pointsKey = useMemo(
    () => views.map((v) => `${v.worstState[0]}${v.houseCount}`).join(''),
    [views],
  );
  const regionsKey = useMemo(() => [...states].map(([k, v]) => `${k}${v[0]}`).join(), [states]);
  const pulsing = useMemo(
    () =>
      views
        .filter((f) => f.pulsing && f.longitude !== null && f.latitude !== null)
        .slice(0, MAX_PULSE_MARKERS),
    [views],
  );

  // Drill-down camera: fit the selected area, or the farm, or go back to the whole map. Only a
  // change of selection moves it, never a live update of the farms.
  useEffect(() => {
    if (!loaded) return;
    return reaction(
      () => [store.selectedFarmId, store.selectedRegion, store.mapType] as const,
      ([farmId, region, type]) => {
        const map = mapRef.current;
        if (!map) return;
        const farm = untracked(() => store.views.find((f) => f.farmId === farmId));
        const feature = (store.regions?.features as AreaFeature[] | undefined)?.find(
          (f) => regionKey(f) === region,
        );
        if (farm?.longitude != null && farm.latitude != null)
          map.flyTo({
            center: [farm.longitude, farm.latitude],
            zoom: FARM_ZOOM,
            duration: FLY_DURATION_MS,
          });
        else if (feature)
          map.fitBounds(boundsOf(feature.geometry), {
            padding: FIT_PADDING_PX,
            duration: FLY_DURATION_MS,
          });
        else
          map.fitBounds(type === '2' ? WORLD_BOUNDS : CHINA_BOUNDS, {
            padding: FIT_PADDING_PX,
            duration: FLY_DURATION_MS,
          });
      },
    );
  }, [store, loaded]);

  // A drilled Chinese province shows its cities (fetched once per province).
  useEffect(() => {
    if (world || !selectedRegion) return setCities(null);
    let cancelled = false;
    void store.cities(selectedRegion).then((c) => !cancelled && setCities(c));
    return () => {
      cancelled = true;
    };
  }, [store, world, selectedRegion]);

  const layers = useMemo(
    () => [
      new GeoJsonLayer<AreaFeature['properties']>({
        id: 'regions',
        data: regions as never,
        pickable: true,
        stroked: true,
        filled: true,
        lineWidthUnits: 'pixels',
        getLineWidth: (f) => (regionKey(f as AreaFeature) === selectedRegion ? 3 : 1),
        getLineColor: (f) =>
          regionKey(f as AreaFeature) === selectedRegion
            ? [120, 200, 255, 255]
            : [60, 110, 160, 255],
        getFillColor: (f) => {
          const state = states.get(regionKey(f as AreaFeature));
          return state ? [...STATE_RGB[state], REGION_ALPHA[state]] : [0, 0, 0, 0];
        },
        updateTriggers: {
          getFillColor: [regionsKey],
          getLineWidth: [selectedRegion],
          getLineColor: [selectedRegion],
        },
      }),
      new GeoJsonLayer({
        id: 'cities',
        data: (cities ?? { type: 'FeatureCollection', features: [] }) as never,
        visible: cities !== null,
        stroked: true,
        filled: false,
        lineWidthUnits: 'pixels',
        getLineWidth: 1,
        getLineColor: [90, 150, 210, 160],
      }),
      new ScatterplotLayer<WallFarm>({
        id: 'farms',
        data: placed,
        pickable: true,
        radiusUnits: 'pixels',
        stroked: true,
        lineWidthUnits: 'pixels',
        getLineWidth: (f) => (f.farmId === selectedFarmId ? 3 : 1) * scale,
        getLineColor: (f) =>
          f.farmId === selectedFarmId ? [255, 255, 255, 255] : [10, 20, 30, 255],
        getPosition: (f) => [f.longitude ?? 0, f.latitude ?? 0],
        getRadius: (f) => radiusOf(viewOfRef.current.get(f.farmId) ?? f, scale),
        getFillColor: (f) => STATE_RGB[(viewOfRef.current.get(f.farmId) ?? f).worstState],
        updateTriggers: {
          getLineWidth: [selectedFarmId, scale],
          getLineColor: [selectedFarmId],
          getRadius: [scale, pointsKey],
          getFillColor: [pointsKey],
        },
      }),
    ],
    [regions, regionsKey, states, selectedRegion, selectedFarmId, cities, placed, pointsKey, scale],
  );

  const handleClick = (info: PickingInfo) => {
    if (info.layer?.id === 'farms' && info.object)
      store.selectFarm((info.object as WallFarm).farmId);
    else if (info.layer?.id === 'regions' && info.object)
      store.selectRegion(regionKey(info.object as AreaFeature));
  };

  if (!style) return null;
  return (
    <div
      className="roost-wall__map"
      data-testid="wall-map"
      data-map-loaded={loaded}
      data-deck-rendered={rendered}
      data-map-type={mapType ?? ''}
      data-view={view ? `${view.longitude},${view.latitude},${view.zoom}` : undefined}
    >
      <Map
        ref={mapRef}
        initialViewState={{
          bounds: world ? WORLD_BOUNDS : CHINA_BOUNDS,
          fitBoundsOptions: { padding: FIT_PADDING_PX },
        }}
        mapStyle={style}
        attributionControl={false}
        dragRotate={false}
        onLoad={(event) => {
          setView(cameraOf(event.target));
          setLoaded(true);
        }}
        onMoveEnd={(event) => setView(cameraOf(event.target))}
      >
        {pulsing.map((farm) => (
          <Marker
            key={farm.farmId}
            longitude={farm.longitude ?? 0}
            latitude={farm.latitude ?? 0}
            style={{ pointerEvents: 'none' }}
          >
            <span
              className="roost-wall__pulse"
              data-farm-id={farm.farmId}
              style={{
                width: `${2 * radiusOf(farm, scale)}px`,
                height: `${2 * radiusOf(farm, scale)}px`,
              }}
            />
          </Marker>
        ))}
        <DeckOverlay
          layers={layers}
          onClick={handleClick}
          onAfterRender={() => !rendered && setRendered(true)}
          getCursor={({ isHovering }) => (isHovering ? 'pointer' : 'default')}
        />
      </Map>
    </div>
  );
});
