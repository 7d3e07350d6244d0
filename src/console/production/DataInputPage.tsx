import { useEffect, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Button, Callout, Classes, FormGroup, HTMLTable, Intent } from '@blueprintjs/core';
import { FloppyDiskIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { DataInputStore } from '../../stores/DataInputStore';
import { GRID_COLUMNS, parsePaste, type GridColumn } from '../../stores/productionGrid';
import { ScrollRegion } from '../ScrollRegion';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import { FarmHousePicker } from './FarmHousePicker';
import { HouseMonthView } from './HouseMonthView';
import { INPUT_PROBLEMS_ID, InputProblems } from './InputProblems';
import { todayIso } from './productionFormat';
import './production.css';
import { DateInput } from '../forms/DateInput';
import { useConfirmSave } from '../useConfirmSave';
import { formatDate } from '../../i18n/dates';

/** Columns a layer farm enters; a broiler house has no eggs. */
const EGG_COLUMNS: ReadonlySet<GridColumn> = new Set(['eggs', 'eggKg']);

/** /production/input: all houses of a farm for one day, keyboard and paste friendly; a house's month below. */
export const DataInputPage = observer(function DataInputPage() {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const { api, session } = useStores();
  const [store] = useState(() => new DataInputStore(api, todayIso()));
  const operate = session.canOperate;
  useEffect(() => void store.loadPlaces().catch(() => undefined), [store]);

  const grid = store.grid;
  const layer = grid?.rows.some((r) => r.layer) ?? false;
  const columns = GRID_COLUMNS.filter((c) => layer || !EGG_COLUMNS.has(c));

  const focusCell = (row: number, column: number) =>
    document.querySelector<HTMLInputElement>(`[data-cell="${row}:${column}"]`)?.focus();
  const handleKey = (row: number, column: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter') focusCell(row + 1, column);
    else if (e.key === 'ArrowUp') focusCell(row - 1, column);
    else if (
      e.key === 'ArrowRight' &&
      e.currentTarget.selectionStart === e.currentTarget.value.length
    )
      focusCell(row, column + 1);
    else if (e.key === 'ArrowLeft' && e.currentTarget.selectionStart === 0)
      focusCell(row, column - 1);
    else return;
    e.preventDefault();
  };
  const handlePaste =
    (row: number, column: GridColumn) => (e: ClipboardEvent<HTMLInputElement>) => {
      const text = e.clipboardData.getData('text/plain');
      // A single value pastes as usual; a block spreads over the grid from this cell.
      if (!text.includes('\t') && !text.trim().includes('\n')) return;
      e.preventDefault();
      store.paste(row, GRID_COLUMNS.indexOf(column), parsePaste(text));
    };
  const refused = () => {
    const required = [...store.errors.values()].includes('required');
    showToast({
      message: t(required ? 'production.input.required' : 'production.input.invalid'),
      intent: Intent.DANGER,
      timeoutMs: NOTIFICATION_MS,
    });
  };
  /** Checks the cells first: a refused value is shown at once, without the save question. */
  const askSave = () => {
    if (store.validate() === null) return refused();
    confirmSave.ask(() => void save(), formatDate(store.day));
  };
  const save = async () => {
    let saved: number | null;
    try {
      saved = await store.save();
    } catch {
      return;
    }
    if (saved === null) return refused();
    showSuccessToast(t('production.input.saved'));
  };

  return (
    <div className="roost-production" data-testid="data-input">
      <div className="roost-production__bar">
        {confirmSave.dialog}
        <FarmHousePicker
          id="production-farm"
          label={t('production.input.farm')}
          pick="farm"
          places={store.places}
          value={String(store.farmId ?? '')}
          onChange={(v) => void store.choose(Number(v), store.day).catch(() => undefined)}
        />
        <FormGroup label={t('production.input.day')} labelFor="production-day">
          <DateInput
            id="production-day"
            value={store.day}
            max={todayIso()}
            onChange={(day) => day && void store.choose(store.farmId, day).catch(() => undefined)}
          />
        </FormGroup>
        {operate && (
          <Button
            intent={Intent.PRIMARY}
            icon={<FloppyDiskIcon />}
            loading={store.saving}
            onClick={askSave}
            data-testid="save-day"
          >
            {t('production.input.save')}
          </Button>
        )}
      </div>
      {operate ? (
        <p className={Classes.TEXT_MUTED}>{t('production.input.pasteHint')}</p>
      ) : (
        <Callout intent={Intent.PRIMARY}>{t('production.input.readOnly')}</Callout>
      )}
      <InputProblems grid={grid} errors={store.errors} />
      <ScrollRegion className="roost-production__scroll" label={t('route.productionInput')}>
        <HTMLTable
          compact
          bordered
          className="roost-production__grid"
          data-testid="day-grid"
          data-day={store.gridDay ?? undefined}
        >
          <thead>
            <tr>
              <th scope="col">{t('production.input.house')}</th>
              <th scope="col">{t('production.input.age')}</th>
              {columns.map((c) => (
                <th scope="col" key={c}>
                  {t(`production.field.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid?.rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + 2}>{t('production.input.empty')}</td>
              </tr>
            )}
            {grid?.rows.map((row, r) => (
              <tr key={row.houseId} data-house={row.houseName}>
                <th scope="row">
                  <button
                    type="button"
                    className="roost-production__house"
                    aria-pressed={store.monthHouseId === row.houseId}
                    onClick={() => void store.loadMonth(row.houseId).catch(() => undefined)}
                  >
                    {row.houseName}
                  </button>
                </th>
                <td>{row.ageDay ?? t('production.input.noFlock')}</td>
                {columns.map((c) => {
                  const error = store.errors.get(`${r}:${c}`);
                  const column = GRID_COLUMNS.indexOf(c);
                  return (
                    <td key={c}>
                      <input
                        className={`${Classes.INPUT} ${Classes.SMALL} roost-production__cell${error ? ` ${Classes.INTENT_DANGER}` : ''}`}
                        data-cell={`${r}:${column}`}
                        aria-label={`${row.houseName} ${t(`production.field.${c}`)}`}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? INPUT_PROBLEMS_ID : undefined}
                        title={
                          error
                            ? t(
                                error === 'required'
                                  ? 'production.input.required'
                                  : 'production.input.invalid',
                              )
                            : undefined
                        }
                        inputMode={c === 'note' ? 'text' : 'decimal'}
                        disabled={!operate || row.flockId === null}
                        value={store.drafts[r]?.[c] ?? ''}
                        onChange={(e) => store.edit(r, c, e.target.value)}
                        onKeyDown={handleKey(r, column)}
                        onPaste={handlePaste(r, c)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
      {store.month && (
        <HouseMonthView
          month={store.month}
          houseName={grid?.rows.find((r) => r.houseId === store.monthHouseId)?.houseName ?? ''}
          onPick={(day) => void store.choose(store.farmId, day).catch(() => undefined)}
        />
      )}
    </div>
  );
});
