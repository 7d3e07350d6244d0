import { type Layer, type PickingInfo } from '@deck.gl/core';
import { type MapLibreOverlay } from '@deck.gl/maplibre';
import { GeoJsonLayer, ScatterplotLayer } from '@deck.gl/layers';
import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { reaction, untracked } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Map, type MapRef } from 'react-map-gl/maplibre';
import type { Feature } from 'geojson';
import { type WallState } from '../../contract/wall';
import { type AreaGeometry, type ChinaCityCollection, type LngLat } from '../geo/geoTypes';
import { DESIGN_WIDTH_PX, STATE_RGB } from './constants';
import { DeckOverlay, type DeckLoop } from './DeckOverlay';
import { FarmPoints, radiusOf } from './farmPoints';
import { PulseRings } from './pulseRings';
import { LAND_LAYER, outlineRegion, paintRegions, wallMapStyle } from './mapStyle';
import { boundsOf } from './wallModel';
import { everyChange, type WallStore } from './WallStore';

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

interface Camera {
  longitude: number;
  latitude: number;
  zoom: number;
}

function cameraOf(map: { getCenter(): { lng: number; lat: number }; getZoom(): number }): Camera {
  const { lng, lat } = map.getCenter();
  return { longitude: lng, latitude: lat, zoom: map.getZoom() };
}

interface SelectedPoint {
  farmId: number;
  position: LngLat;
  radius: number;
  state: WallState;
}

interface LiveLayerState {
  states: Map<string, WallState>;
  /** The region states as a string: the regions are painted again only when it changes. */
  statesKey: string;
  selected: SelectedPoint | null;
}

const regionKey = (f: AreaFeature) => f.properties.adcode ?? f.properties.id ?? '';

export interface WallMapProps {
  /** The wall's store: regions, farms, selection. */
  store: WallStore;
}

/** The map: regions shaded by their worst farm, farms as points; picking drives the drill-down. */
export const WallMap = observer(function WallMap({ store }: WallMapProps) {
  const mapRef = useRef<MapRef>(null);
  const overlayRef = useRef<MapLibreOverlay | null>(null);
  const loopRef = useRef<DeckLoop | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [rendered, setRendered] = useState(false);
  /** The camera after its last move, on the container for tests and diagnostics. */
  const [view, setView] = useState<Camera | null>(null);
  const [cities, setCities] = useState<ChinaCityCollection | null>(null);
  // Only what changes by hand or on a refetch is read here: the live state of the farms never
  // renders this component (see the reaction below).
  const { regions, mapType, farms } = store;
  const { region: selectedRegion, farmId: selectedFarmId } = store.drill;
  const world = mapType === '2';
  const style = useMemo(() => (regions ? wallMapStyle(regions) : null), [regions]);
  const scale = Math.max(0.5, window.innerWidth / DESIGN_WIDTH_PX);
  const points = useMemo(() => new FarmPoints(farms), [farms]);
  /** The live part of the layers: region shading and the selected farm's state. */
  const live = useRef<LiveLayerState>({
    // globalThis: `Map` here is react-map-gl's component.
    states: new globalThis.Map(),
    statesKey: '',
    selected: null,
  });

  /**
   * The layers as last built, with what they were built from: a live update rebuilds only the
   * farms' layer, and deck.gl skips a layer it is handed again (a new one, even alike, would be
   * compared prop by prop and the regions' GeoJSON sublayers made again each second).
   */
  const built = useRef(new globalThis.Map<string, { deps: unknown[]; layer: Layer }>());
  const keep = <L extends Layer>(id: string, deps: unknown[], make: () => L): Layer => {
    const last = built.current.get(id);
    if (last && last.deps.length === deps.length && last.deps.every((d, i) => d === deps[i]))
      return last.layer;
    const layer = make();
    built.current.set(id, { deps, layer });
    return layer;
  };

  /** A layer left out: deck.gl finalizes it, and a finalized layer may not be handed over again. */
  const drop = (id: string) => {
    built.current.delete(id);
    return null;
  };

  const buildLayers = () => {
    const { selected } = live.current;
    return [
      // Only while a province is drilled, as the selected farm's layer only while one is: every
      // layer handed over is compared and drawn at each live update, empty or hidden.
      !cities
        ? drop('cities')
        : keep(
            'cities',
            [cities],
            () =>
              new GeoJsonLayer({
                id: 'cities',
                data: cities as never,
                stroked: true,
                filled: false,
                lineWidthUnits: 'pixels',
                getLineWidth: 1,
                getLineColor: [90, 150, 210, 160],
              }),
          ),
      // Binary attributes: a live update hands deck.gl new colour and radius arrays (uploaded as
      // they are), never 10,000 accessor calls; positions keep their buffer.
      new ScatterplotLayer({
        id: 'farms',
        data: points.data,
        pickable: true,
        radiusUnits: 'pixels',
        stroked: true,
        lineWidthUnits: 'pixels',
        getLineWidth: scale,
        getLineColor: [10, 20, 30, 255],
        radiusScale: scale,
      }),
      // The selected farm drawn again on top, outlined: one point, so the 10,000 keep their
      // attributes when the selection changes.
      !selected
        ? drop('farm-selected')
        : keep(
            'farm-selected',
            [selected.farmId, selected.state, selected.radius, ...selected.position, scale],
            () =>
              new ScatterplotLayer<SelectedPoint>({
                id: 'farm-selected',
                data: [selected],
                radiusUnits: 'pixels',
                stroked: true,
                lineWidthUnits: 'pixels',
                getLineWidth: 3 * scale,
                getLineColor: [255, 255, 255, 255],
                getPosition: (f) => f.position,
                getRadius: (f) => f.radius * scale,
                getFillColor: (f) => STATE_RGB[f.state],
                updateTriggers: { getRadius: [scale], getFillColor: [selected.state] },
              }),
          ),
    ].filter((layer): layer is Layer => Boolean(layer));
  };
  const buildRef = useRef(buildLayers);
  buildRef.current = buildLayers;

  // The per-second path: a live update writes the changed farms into the points' arrays and
  // hands the overlay new layers, with no React render.
  useEffect(() => {
    const redraw = () => {
      overlayRef.current?.setProps({ layers: buildRef.current() });
      loopRef.current?.wake();
    };
    const paint = () => {
      const map = mapRef.current?.getMap();
      if (map && regions) paintRegions(map, regions, live.current.states);
    };
    // The views' change this reaction last saw: a live update then redraws only the farms it
    // changed, and anything else (the first run, a rebuild) every farm.
    let seen = -1;
    return reaction(
      () => store.views,
      (views) => {
        const { generation, changed } = store.viewChangesSince(seen);
        seen = generation;
        const pointsChanged = points.update(views, changed);
        const states = store.regionStates;
        const statesKey = [...states].map(([k, v]) => `${k}${v[0]}`).join();
        const farm =
          selectedFarmId === null ? null : views.find((f) => f.farmId === selectedFarmId);
        const selected =
          farm && farm.longitude !== null && farm.latitude !== null
            ? {
                farmId: farm.farmId,
                position: [farm.longitude, farm.latitude] as LngLat,
                radius: radiusOf(farm),
                state: farm.worstState,
              }
            : null;
        const before = live.current;
        const selectedChanged =
          before.selected?.farmId !== selected?.farmId ||
          before.selected?.state !== selected?.state ||
          before.selected?.radius !== selected?.radius ||
          (before.selected === null) !== (selected === null);
        live.current = { states, statesKey, selected };
        if (statesKey !== before.statesKey) paint();
        if (pointsChanged || selectedChanged) redraw();
      },
      { fireImmediately: true, equals: everyChange },
    );
  }, [store, points, selectedFarmId, regions]);

  // The regions' states and outline on a new map (style) and a new selection; the live updates
  // paint the states in the reaction above. Painted again whenever MapLibre reloads the style's
  // data, which drops nothing but may arrive after this effect.
  useEffect(() => {
    const map = mapRef.current?.getMap();
    if (!loaded || !map || !regions) return;
    const paint = () => {
      paintRegions(map, regions, live.current.states);
      outlineRegion(map, regions, selectedRegion);
    };
    paint();
    map.on('styledata', paint);
    return () => {
      map.off('styledata', paint);
    };
  }, [loaded, style, regions, selectedRegion]);

  // The pulsing farms' rings, moved by the store's slots without a React render (PulseRings).
  useEffect(() => {
    const map = mapRef.current?.getMap();
    if (!loaded || !map) return;
    const rings = new PulseRings(map);
    const stop = reaction(
      () => store.pulseMarkers,
      (markers) => rings.show(markers, scale),
      { fireImmediately: true },
    );
    return () => {
      stop();
      rings.dispose();
    };
  }, [store, loaded, scale]);

  // Drill-down camera: fit the selected area, or the farm, or go back to the whole map. Only a
  // change of selection moves it, never a live update of the farms.
  useEffect(() => {
    if (!loaded) return;
    return reaction(
      () => [store.drill.farmId, store.drill.region, store.mapType] as const,
      ([farmId, region, type]) => {
        const map = mapRef.current;
        if (!map) return;
        const farm = untracked(() => store.farms.find((f) => f.farmId === farmId));
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

  // deck.gl picks the farms; a click beside them selects the region MapLibre drew there.
  const handleClick = (info: PickingInfo) => {
    const farm = info.layer?.id === 'farms' ? points.farms[info.index] : undefined;
    if (farm) return store.drill.selectFarm(farm.farmId);
    const [region] =
      mapRef.current?.queryRenderedFeatures([info.x, info.y], { layers: [LAND_LAYER] }) ?? [];
    if (region) store.drill.selectRegion(regionKey(region as unknown as AreaFeature));
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
      // deck.gl picks what a pointer hovers on its loop's tick: quick while one is here.
      onPointerEnter={() => loopRef.current?.setHovered(true)}
      onPointerLeave={() => loopRef.current?.setHovered(false)}
    >
      <Map
        ref={mapRef}
        initialViewState={{
          bounds: world ? WORLD_BOUNDS : CHINA_BOUNDS,
          fitBoundsOptions: { padding: FIT_PADDING_PX },
        }}
        // The world is 512 px wide at zoom 0: a narrower map (a 1280-pixel wall's centre) needs
        // to zoom below 0 to hold it whole, or the fit leaves its farms past the edge.
        minZoom={-2}
        mapStyle={style}
        attributionControl={false}
        dragRotate={false}
        onLoad={(event) => {
          setView(cameraOf(event.target));
          setLoaded(true);
        }}
        onMoveEnd={(event) => setView(cameraOf(event.target))}
        // A wall resized (made fullscreen, or moved to another screen) shows the whole map
        // again, unless someone drilled in: the first fit was for the old size.
        onResize={(event) => {
          if (store.drill.farmId !== null || store.drill.region !== null) return;
          event.target.fitBounds(world ? WORLD_BOUNDS : CHINA_BOUNDS, {
            padding: FIT_PADDING_PX,
            duration: 0,
          });
        }}
      >
        <DeckOverlay
          overlayRef={overlayRef}
          loopRef={loopRef}
          layers={buildLayers()}
          onClick={handleClick}
          onAfterRender={() => !rendered && setRendered(true)}
          getCursor={({ isHovering }) => (isHovering ? 'pointer' : 'default')}
        />
      </Map>
    </div>
  );
});
