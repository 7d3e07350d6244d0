import { Marker, type Map as MapLibreMap } from 'maplibre-gl';
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
  marker: Marker;
  ring: HTMLSpanElement;
  animation: Animation | undefined;
  farmId: number;
  longitude: number;
  latitude: number;
  diameterPx: number;
}

/**
 * The pulsing farms' rings on the map: one MapLibre marker per slot (see pulseMarkersOf), kept
 * while its slot is in use and moved to the farm that takes it. Outside React: in a storm every
 * one of the 100 slots changes farm each second, and React's render, its portal and
 * react-map-gl's Marker for each cost more of the update than moving the markers (bench/wall.ts).
 *
 * Each ring beats by the Web Animations API, not a CSS animation: a CSS animation dispatches an
 * `animationiteration` event each beat, and React's root listener handled 100 rings' events for
 * about 1.7 ms of every second at 10,000 farms.
 */
export class PulseRings {
  private readonly rings: (Ring | undefined)[] = [];

  constructor(private readonly map: MapLibreMap) {}

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
      if (ring.longitude !== m.longitude || ring.latitude !== m.latitude) {
        ring.marker.setLngLat([m.longitude, m.latitude]);
        ring.longitude = m.longitude;
        ring.latitude = m.latitude;
      }
      if (ring.farmId !== m.farmId) {
        ring.ring.dataset.farmId = String(m.farmId);
        ring.farmId = m.farmId;
      }
      if (ring.diameterPx !== diameterPx) {
        size(ring.ring, diameterPx);
        ring.diameterPx = diameterPx;
      }
    }
    this.rings.forEach((ring, slot) => {
      if (ring && !used.has(slot)) this.remove(slot);
    });
  }

  /** Takes every ring off the map. */
  dispose(): void {
    this.rings.forEach((_, slot) => this.remove(slot));
  }

  private make(m: PulseMarker, diameterPx: number): Ring {
    const element = document.createElement('div');
    element.style.pointerEvents = 'none';
    const ring = document.createElement('span');
    ring.className = 'roost-wall__pulse';
    ring.dataset.farmId = String(m.farmId);
    size(ring, diameterPx);
    element.append(ring);
    const marker = new Marker({ element }).setLngLat([m.longitude, m.latitude]).addTo(this.map);
    return {
      marker,
      ring,
      animation: ring.animate?.(PULSE_KEYFRAMES, PULSE_TIMING),
      farmId: m.farmId,
      longitude: m.longitude,
      latitude: m.latitude,
      diameterPx,
    };
  }

  private remove(slot: number): void {
    const ring = this.rings[slot];
    if (!ring) return;
    ring.animation?.cancel();
    ring.marker.remove();
    this.rings[slot] = undefined;
  }
}

function size(ring: HTMLSpanElement, diameterPx: number): void {
  ring.style.width = `${diameterPx}px`;
  ring.style.height = `${diameterPx}px`;
}
