import { z } from 'zod';

/** The wall's side panels, by the id a kiosk link's layout names them with. */
export const WALL_PANELS = [
  'counters',
  'today',
  'night',
  'ranking',
  'legend',
  'alarms',
  'production',
  'ticker',
] as const;
export type WallPanelId = (typeof WALL_PANELS)[number];

/**
 * Which panels the wall shows and where: two ordered columns beside the map, which always
 * stays in the centre. A panel appears at most once, in one column.
 */
export interface WallLayout {
  left: WallPanelId[];
  right: WallPanelId[];
}

/** The console's wall, and every link made before layouts existed. */
export const DEFAULT_WALL_LAYOUT: WallLayout = {
  left: ['counters', 'today', 'night', 'ranking', 'legend'],
  right: ['alarms', 'production', 'ticker'],
};

const panelIdSchema = z.enum(WALL_PANELS, { message: 'wall.layoutPanelUnknown' });

export const wallLayoutSchema = z
  .object({
    left: z.array(panelIdSchema).max(WALL_PANELS.length),
    right: z.array(panelIdSchema).max(WALL_PANELS.length),
  })
  .refine((v) => new Set([...v.left, ...v.right]).size === v.left.length + v.right.length, {
    message: 'wall.layoutPanelTwice',
  })
  .refine((v) => v.left.length + v.right.length > 0, { message: 'wall.layoutEmpty' });

/** Where the tour goes: the whole map, the worst farms one by one, or a panel in the spotlight. */
export const TOUR_PLACES = ['overview', 'worstFarms'] as const;
export type WallTourStop = (typeof TOUR_PLACES)[number] | WallPanelId;
export const TOUR_STOPS: readonly WallTourStop[] = [...TOUR_PLACES, ...WALL_PANELS];

/** Seconds a tour stays at each stop: long enough to read across a room, short enough to move. */
export const TOUR_SECONDS_MIN = 10;
export const TOUR_SECONDS_MAX = 300;

export const wallTourSchema = z
  .object({
    seconds: z
      .number({ message: 'wall.tourSeconds' })
      .int('wall.tourSeconds')
      .min(TOUR_SECONDS_MIN, 'wall.tourSeconds')
      .max(TOUR_SECONDS_MAX, 'wall.tourSeconds'),
    stops: z
      .array(z.enum([...TOUR_PLACES, ...WALL_PANELS], { message: 'wall.tourStopUnknown' }))
      .min(1, 'wall.tourStopsRequired')
      .max(TOUR_STOPS.length),
  })
  .refine((v) => new Set(v.stops).size === v.stops.length, { message: 'wall.tourStopTwice' });
export type WallTour = z.infer<typeof wallTourSchema>;

/** A tour cannot spotlight a panel the wall does not show. */
export function tourFitsLayout(v: { layout: WallLayout; tour: WallTour | null }): boolean {
  return (v.tour?.stops ?? []).every(
    (s) => !(WALL_PANELS as readonly string[]).includes(s) || shows(v.layout, s as WallPanelId),
  );
}
export const TOUR_FITS = { message: 'wall.tourPanelHidden', path: ['tour'] };

/** What a link shows, beside its scope: the panels and the tour (null: none). */
export const wallDisplaySchema = z.object({
  layout: wallLayoutSchema,
  tour: wallTourSchema.nullable(),
});
export type WallDisplay = z.infer<typeof wallDisplaySchema>;

export function shows(layout: WallLayout, panel: WallPanelId): boolean {
  return layout.left.includes(panel) || layout.right.includes(panel);
}
