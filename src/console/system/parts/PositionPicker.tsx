import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Callout, Classes, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Position } from 'geojson';
import {
  GEO_FILES,
  type AreaGeometry,
  type ChinaCityCollection,
} from '../../../screens/geo/geoTypes';

const WIDTH = 520;
const HEIGHT = 300;
const PAD = 8;

/**
 * A province's map (its cities' outlines, from the offline files in public/geo) on which a click
 * sets a farm's longitude and latitude: the wall places each farm by them, and nobody knows a
 * farm's coordinates to four decimals by heart. The numbers stay editable beside it.
 */
export function PositionPicker({
  adcode,
  longitude,
  latitude,
  onPick,
}: {
  adcode: string;
  longitude: number | null;
  latitude: number | null;
  onPick(longitude: number, latitude: number): void;
}) {
  const { t, i18n } = useTranslation();
  // The map of the province last loaded: a new province shows the spinner until its map is in.
  const [loaded, setLoaded] = useState<{
    adcode: string;
    areas: ChinaCityCollection | 'missing';
  } | null>(null);
  useEffect(() => {
    let current = true;
    const load = async (): Promise<ChinaCityCollection | 'missing'> => {
      try {
        const res = await fetch(GEO_FILES.chinaProvince(adcode));
        return res.ok ? ((await res.json()) as ChinaCityCollection) : 'missing';
      } catch {
        return 'missing';
      }
    };
    void load().then((areas) => current && setLoaded({ adcode, areas }));
    return () => {
      current = false;
    };
  }, [adcode]);
  const areas = loaded?.adcode === adcode ? loaded.areas : null;
  const view = useMemo(() => (areas && areas !== 'missing' ? fitted(areas) : null), [areas]);

  if (areas === null) return <Spinner size={24} />;
  if (!view || areas === 'missing')
    return (
      <Callout compact data-testid="position-no-map">
        {t('admin.farm.noMap')}
      </Callout>
    );
  const pick = (event: MouseEvent<SVGSVGElement>) => {
    // From the screen to the map's own units, whatever size the dialog gives it.
    const toMap = event.currentTarget.getScreenCTM()?.inverse();
    if (!toMap) return;
    const { x, y } = new DOMPoint(event.clientX, event.clientY).matrixTransform(toMap);
    const [lng, lat] = view.invert(x, y);
    onPick(round4(lng), round4(lat));
  };
  const marker =
    longitude !== null && latitude !== null ? view.project([longitude, latitude]) : null;
  const zh = i18n.language.startsWith('zh');
  return (
    <figure className="roost-position" data-testid="position-picker">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={t('admin.farm.pickOnMap')}
        onClick={pick}
      >
        {areas.features.map((f) => (
          <path key={f.properties.adcode} d={view.path(f.geometry)}>
            <title>{zh ? f.properties.name : f.properties.nameEn}</title>
          </path>
        ))}
        {marker && (
          <circle
            data-testid="position-marker"
            cx={marker[0]}
            cy={marker[1]}
            r={6}
            className="roost-position__marker"
          />
        )}
      </svg>
      <figcaption className={Classes.TEXT_MUTED}>{t('admin.farm.pickOnMap')}</figcaption>
    </figure>
  );
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

function ringsOf(geometry: AreaGeometry): Position[][] {
  return geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
}

/**
 * An equirectangular view fitted to the areas, x scaled by the cosine of the middle latitude:
 * true enough in shape at a province's size, and exactly invertible for the click.
 */
function fitted(areas: ChinaCityCollection) {
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const f of areas.features)
    for (const ring of ringsOf(f.geometry))
      for (const [lng, lat] of ring) {
        west = Math.min(west, lng!);
        east = Math.max(east, lng!);
        south = Math.min(south, lat!);
        north = Math.max(north, lat!);
      }
  if (!Number.isFinite(west)) return null;
  const stretch = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const scale = Math.min(
    (WIDTH - 2 * PAD) / Math.max((east - west) * stretch, 1e-6),
    (HEIGHT - 2 * PAD) / Math.max(north - south, 1e-6),
  );
  // Centred in the box.
  const left = (WIDTH - (east - west) * stretch * scale) / 2;
  const top = (HEIGHT - (north - south) * scale) / 2;
  const project = ([lng, lat]: Position): [number, number] => [
    left + (lng! - west) * stretch * scale,
    top + (north - lat!) * scale,
  ];
  return {
    project,
    invert: (x: number, y: number): [number, number] => [
      west + (x - left) / (stretch * scale),
      north - (y - top) / scale,
    ],
    path: (geometry: AreaGeometry) =>
      ringsOf(geometry)
        .map(
          (ring) =>
            `M${ring
              .map((p) => project(p))
              .map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`)
              .join('L')}Z`,
        )
        .join(''),
  };
}
