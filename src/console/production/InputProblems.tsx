import { Callout, Intent } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type FarmDay } from '../../contract/production';
import { GRID_COLUMNS, type CellError, type GridColumn } from '../../stores/productionGrid';

/** The id the refused cells point at (aria-describedby): a screen reader reads the why too. */
export const INPUT_PROBLEMS_ID = 'production-input-problems';

export interface InputProblemsProps {
  grid: FarmDay | null;
  /** `row:column` → why the cell is refused, as the store keeps them. */
  errors: ReadonlyMap<string, CellError>;
}

/**
 * What keeps the day from being saved, in words on the page: a red border and a tooltip are all
 * a cell can show, and a tablet shows no tooltip. One line per house and kind of refusal, the
 * cells named by their column headings, in grid order.
 */
export const InputProblems = observer(function InputProblems({ grid, errors }: InputProblemsProps) {
  const { t, i18n } = useTranslation();
  if (!grid || errors.size === 0) return null;
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const lines = grid.rows.flatMap((row, r) =>
    (['required', 'invalid'] as const).flatMap((why) => {
      const fields = GRID_COLUMNS.filter((c: GridColumn) => errors.get(`${r}:${c}`) === why);
      if (fields.length === 0) return [];
      const names = list.format(fields.map((c) => t(`production.field.${c}`)));
      return [
        {
          key: `${row.houseId}:${why}`,
          text: t(`production.input.problem.${why}`, { house: row.houseName, fields: names }),
        },
      ];
    }),
  );
  return (
    <Callout
      id={INPUT_PROBLEMS_ID}
      intent={Intent.DANGER}
      title={t('production.input.problem.title')}
      role="alert"
      data-testid="input-problems"
    >
      <ul className="roost-production__problems">
        {lines.map((line) => (
          <li key={line.key}>{line.text}</li>
        ))}
      </ul>
    </Callout>
  );
});
