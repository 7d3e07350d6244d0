import {
  Button,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  Intent,
  NumericInput,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_WALL_LAYOUT,
  shows,
  TOUR_PLACES,
  TOUR_SECONDS_MAX,
  TOUR_SECONDS_MIN,
  WALL_PANELS,
  type WallDisplay,
  type WallPanelId,
  type WallTourStop,
} from '../../contract/wallLayout';
import type { KioskLink } from '../../contract/wallKiosk';

/** A new link's panels and tour: the console's wall, without a tour. */
export const DEFAULT_DISPLAY: WallDisplay = { layout: DEFAULT_WALL_LAYOUT, tour: null };
/** Seconds offered when the tour is turned on. */
const TOUR_SECONDS_START = 20;

interface PickerProps<T extends string> {
  /** Prefixes each control's test id: `${id}-${item}`, `-up`, `-down`. */
  id: string;
  /** What may be chosen, in the order unchosen items are offered. */
  pool: readonly T[];
  chosen: readonly T[];
  label: (item: T) => string;
  onChange: (chosen: T[]) => void;
}

/**
 * An ordered choice that a keyboard and a screen reader can make: a checkbox per item, and up
 * and down buttons beside each chosen one. Chosen items come first, in their order.
 */
function OrderedPicker<T extends string>({ id, pool, chosen, label, onChange }: PickerProps<T>) {
  const { t } = useTranslation();
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange(next);
  };
  const rest = pool.filter((item) => !chosen.includes(item));
  return (
    <ol className="roost-kiosk-picker" data-testid={id} style={{ listStyle: 'none', padding: 0 }}>
      {chosen.map((item, i) => (
        <li key={item} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <Checkbox
            checked
            label={label(item)}
            data-testid={`${id}-${item}`}
            style={{ margin: 0, flex: 1 }}
            onChange={() => onChange(chosen.filter((c) => c !== item))}
          />
          <Button
            size="small"
            variant="minimal"
            icon="arrow-up"
            aria-label={t('wall.kiosk.moveUp', { panel: label(item) })}
            data-testid={`${id}-${item}-up`}
            disabled={i === 0}
            onClick={() => move(i, -1)}
          />
          <Button
            size="small"
            variant="minimal"
            icon="arrow-down"
            aria-label={t('wall.kiosk.moveDown', { panel: label(item) })}
            data-testid={`${id}-${item}-down`}
            disabled={i === chosen.length - 1}
            onClick={() => move(i, 1)}
          />
        </li>
      ))}
      {rest.map((item) => (
        <li key={item}>
          <Checkbox
            checked={false}
            label={label(item)}
            data-testid={`${id}-${item}`}
            className={Classes.TEXT_MUTED}
            style={{ margin: 0 }}
            onChange={() => onChange([...chosen, item])}
          />
        </li>
      ))}
    </ol>
  );
}

/**
 * A kiosk link's panels (two ordered columns beside the map) and its tour (off, or seconds per
 * stop and the stops in order). The server checks the same rules and says what is wrong.
 */
export function KioskDisplayForm({
  value,
  onChange,
}: {
  value: WallDisplay;
  onChange: (value: WallDisplay) => void;
}) {
  const { t } = useTranslation();
  const { layout, tour } = value;
  const panelName = (id: WallPanelId) => t(`wall.panel.${id}`);
  const stopName = (stop: WallTourStop) =>
    stop === 'overview' || stop === 'worstFarms' ? t(`wall.tour.${stop}`) : panelName(stop);
  // A panel hidden from the wall leaves the tour too.
  const setLayout = (next: WallDisplay['layout']) =>
    onChange({
      layout: next,
      tour: tour && {
        ...tour,
        stops: tour.stops.filter((s) => !isPanel(s) || shows(next, s)),
      },
    });
  const stopsPool: WallTourStop[] = [
    ...TOUR_PLACES,
    ...WALL_PANELS.filter((p) => shows(layout, p)),
  ];
  return (
    <div data-testid="kiosk-display">
      <FormGroup label={t('wall.kiosk.display')}>
        <div style={{ display: 'flex', gap: 24 }}>
          {(['left', 'right'] as const).map((side) => {
            const other = side === 'left' ? 'right' : 'left';
            return (
              <div key={side} style={{ flex: 1 }}>
                <h5 className={Classes.HEADING}>{t(`wall.kiosk.${side}`)}</h5>
                <OrderedPicker
                  id={`kiosk-${side}`}
                  pool={WALL_PANELS.filter((p) => !layout[other].includes(p))}
                  chosen={layout[side]}
                  label={panelName}
                  onChange={(chosen) => setLayout({ ...layout, [side]: chosen })}
                />
              </div>
            );
          })}
        </div>
      </FormGroup>
      <RadioGroup
        label={t('wall.kiosk.tour')}
        selectedValue={tour ? 'on' : 'off'}
        onChange={(e) =>
          onChange({
            layout,
            tour:
              e.currentTarget.value === 'on'
                ? { seconds: TOUR_SECONDS_START, stops: ['overview', 'worstFarms'] }
                : null,
          })
        }
      >
        <Radio value="off" label={t('wall.kiosk.tourOff')} data-testid="kiosk-tour-off" />
        <Radio value="on" label={t('wall.kiosk.tourOn')} data-testid="kiosk-tour-on" />
      </RadioGroup>
      {tour && (
        <div style={{ marginLeft: 26 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
            <NumericInput
              id="kiosk-tour-seconds"
              data-testid="kiosk-tour-seconds"
              min={TOUR_SECONDS_MIN}
              max={TOUR_SECONDS_MAX}
              value={tour.seconds}
              clampValueOnBlur
              style={{ width: 70 }}
              onValueChange={(seconds) =>
                onChange({
                  layout,
                  tour: { ...tour, seconds: Number.isFinite(seconds) ? seconds : 0 },
                })
              }
            />
            <label htmlFor="kiosk-tour-seconds">{t('wall.kiosk.seconds')}</label>
          </div>
          <h5 className={Classes.HEADING}>{t('wall.kiosk.stops')}</h5>
          <OrderedPicker
            id="kiosk-stop"
            pool={stopsPool}
            chosen={tour.stops}
            label={stopName}
            onChange={(stops) => onChange({ layout, tour: { ...tour, stops } })}
          />
        </div>
      )}
    </div>
  );
}

const isPanel = (stop: WallTourStop): stop is WallPanelId =>
  (WALL_PANELS as readonly string[]).includes(stop);

/** A short line for the list: how many panels, and the tour's pace. */
export function DisplaySummary({ link }: { link: KioskLink }) {
  const { t } = useTranslation();
  const count = link.layout.left.length + link.layout.right.length;
  const tour = link.tour
    ? t('wall.kiosk.tourSummary', { seconds: link.tour.seconds })
    : t('wall.kiosk.noTour');
  return (
    <span data-testid="kiosk-display-summary">
      {t('wall.kiosk.panelsSummary', { count })}, {tour}
    </span>
  );
}

/** Edits an existing link's panels and tour; its scope stays (a new scope is a new link). */
export function KioskDisplayDialog({
  link,
  onSave,
  onClose,
}: {
  link: KioskLink;
  onSave: (display: WallDisplay) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<WallDisplay>({ layout: link.layout, tour: link.tour });
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await onSave(value);
      onClose();
    } catch {
      // The API client already showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={t('wall.kiosk.editTitle', { name: link.name })}
      style={{ width: 620 }}
      data-testid="kiosk-edit-dialog"
    >
      <DialogBody>
        <KioskDisplayForm value={value} onChange={setValue} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('wall.kiosk.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('wall.kiosk.save')}
              data-testid="kiosk-edit-save"
              loading={busy}
              onClick={() => void save()}
            />
          </>
        }
      />
    </Dialog>
  );
}
