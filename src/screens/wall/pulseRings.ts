import { type Map as MapLibreMap } from 'maplibre-gl';
import { radiusOf } from './farmPoints';
import { type PulseMarker } from './wallModel';

/** One beat of the pulse: a ring that grows and fades. */
const PULSE_KEYFRAMES: Keyframe[] = [
  { transform: 'scale(1)', opacity: 1 },
  { transform: 'scale(2.6)', opacity: 0 },
];
const PULSE_TIMING: KeyframeAnimationOptions = {
  duration: 1_200,
  easing: 'ease-out',
  iterations: Infinity,
};

interface Ring {
  element: HTMLSpanElement;
  animation: Animation | undefined;
  farmId: number;
  longitude: number;
  latitude: number;
  diameterPx: number;
  /** The `translate` last written, to write only a change. */
  translate: string;
}

/**
 * The pulsing farms' rings on the map: one element per slot (see pulseMarkersOf), kept while its
 * slot is in use and moved to the farm that takes it. Outside React: in a storm every one of the
 * 100 slots changes farm each second, and React's render and portals cost more of the update
 * than moving the rings (bench/wall.ts).
 *
 * One element per ring, placed by the CSS `translate` property while the pulse animates its
 * `transform`, not a MapLibre Marker around it: a Marker is a second element with a 3D transform
 * of its own (`rotateX(0deg) rotateZ(0deg)`), and when 100 of them moved each second the style
 * recalculation of those 200 elements took 12–21 ms of main-thread CPU per frame (10,000 farms,
 * bench/wall.ts), the largest part of the update after our script. The rings follow the camera
 * as Markers did: every `move` of the map places them again.
 *
 * Each ring beats by the Web Animations API, not a CSS animation: a CSS animation dispatches an
 * `animationiteration` event each beat, and React's root listener handled 100 rings' events for
 * about 1.7 ms of every second at 10,000 farms.
 */
export class PulseRings {
  private readonly rings: (Ring | undefined)[] = [];
  private readonly layer: HTMLDivElement;
  private readonly place = () => {
    for (const ring of this.rings) if (ring) this.position(ring);
  };

  constructor(private readonly map: MapLibreMap) {
    this.layer = document.createElement('div');
    this.layer.className = 'roost-wall__pulses';
    // Where MapLibre puts its markers: under deck.gl's points, over the map's canvas.
    map.getCanvasContainer().append(this.layer);
    map.on('move', this.place);
    map.on('resize', this.place);
  }

  /** Shows these markers (slots as given) at this scale; slots left out are removed. */
  show(markers: readonly PulseMarker[], scale: number): void {
    const used = new Set<number>();
    for (const m of markers) {
      used.add(m.slot);
      const diameterPx = 2 * radiusOf(m) * scale;
      const ring = this.rings[m.slot];
      if (!ring) {
        this.rings[m.slot] = this.make(m, diameterPx);
        continue;
      }
      if (ring.farmId !== m.farmId) {
        ring.element.dataset.farmId = String(m.farmId);
        ring.farmId = m.farmId;
      }
      // Placed again only when it moved or changed size: the camera's moves place every ring
      // (`place`), and projecting 100 rings that stayed was most of this method in a storm.
      if (
        ring.diameterPx === diameterPx &&
        ring.longitude === m.longitude &&
        ring.latitude === m.latitude
      )
        continue;
      if (ring.diameterPx !== diameterPx) {
        size(ring.element, diameterPx);
        ring.diameterPx = diameterPx;
      }
      ring.longitude = m.longitude;
      ring.latitude = m.latitude;
      this.position(ring);
    }
    this.rings.forEach((ring, slot) => {
      if (ring && !used.has(slot)) this.remove(slot);
    });
  }

  /** Takes every ring off the map. */
  dispose(): void {
    this.rings.forEach((_, slot) => this.remove(slot));
    this.map.off('move', this.place);
    this.map.off('resize', this.place);
    this.layer.remove();
  }

  private make(m: PulseMarker, diameterPx: number): Ring {
    const element = document.createElement('span');
    element.className = 'roost-wall__pulse';
    element.dataset.farmId = String(m.farmId);
    size(element, diameterPx);
    this.layer.append(element);
    const ring: Ring = {
      element,
      animation: element.animate?.(PULSE_KEYFRAMES, PULSE_TIMING),
      farmId: m.farmId,
      longitude: m.longitude,
      latitude: m.latitude,
      diameterPx,
      translate: '',
    };
    this.position(ring);
    return ring;
  }

  /** Centres the ring on its farm as the camera now shows it. */
  private position(ring: Ring): void {
    const { x, y } = this.map.project([ring.longitude, ring.latitude]);
    const half = ring.diameterPx / 2;
    // Whole pixels: a still ring is not redrawn for a camera's sub-pixel drift.
    const translate = `${Math.round(x - half)}px ${Math.round(y - half)}px`;
    if (translate === ring.translate) return;
    ring.element.style.translate = translate;
    ring.translate = translate;
  }

  private remove(slot: number): void {
    const ring = this.rings[slot];
    if (!ring) return;
    ring.animation?.cancel();
    ring.element.remove();
    this.rings[slot] = undefined;
  }
}

function size(ring: HTMLSpanElement, diameterPx: number): void {
  ring.style.width = `${diameterPx}px`;
  ring.style.height = `${diameterPx}px`;
}
