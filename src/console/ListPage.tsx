import { type ReactNode } from 'react';
import { Button, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { AddIcon, SearchIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type ListActions } from './listActions';
import { ScrollRegion } from './ScrollRegion';
import { ConfirmDelete } from './system/parts/ConfirmDelete';
import './system/parts/admin.css';

export interface ListPageProps {
  /** The page's test id (`page-org`, …). */
  testId: string;
  actions: ListActions<unknown>;
  /** The filter bar's fields, before its Search button. */
  filters: ReactNode;
  /** The Add button's text; without it the bar has no Add button. */
  addText?: string;
  /** The page's own buttons (and inputs) at the end of the bar. */
  barEnd?: ReactNode;
  /** With it the list's card scrolls on its own, named so for a screen reader. */
  regionLabel?: string;
  /** The list: a `ListTable`. */
  children: ReactNode;
  /** Under the list: the page's own panels and dialogs, its edit dialog among them. */
  after?: ReactNode;
}

/**
 * The frame of a system-management list page: the filter bar (the page's fields, Search, Add),
 * the list in its card, the page's own panels and dialogs, and the delete confirmation with the
 * count that remains. What the buttons do is `ListActions`.
 */
export const ListPage = observer(function ListPage({
  testId,
  actions,
  filters,
  addText,
  barEnd,
  regionLabel,
  children,
  after,
}: ListPageProps) {
  const { t } = useTranslation();
  const { deleting, deletes } = actions;
  return (
    <div className="roost-page roost-admin" data-testid={testId}>
      <div className="roost-admin__card roost-admin__bar">
        {filters}
        <Button
          intent={Intent.PRIMARY}
          icon={<SearchIcon />}
          text={t('admin.common.search')}
          onClick={() => void actions.search()}
        />
        {addText !== undefined && (
          <Button icon={<AddIcon />} text={addText} onClick={() => actions.edit('new')} />
        )}
        {barEnd}
      </div>
      {regionLabel === undefined ? (
        <div className="roost-admin__card">{children}</div>
      ) : (
        <ScrollRegion className="roost-admin__card" label={regionLabel}>
          {children}
        </ScrollRegion>
      )}
      {after}
      {deletes && (
        <ConfirmDelete
          name={deleting === null ? null : deletes.nameOf(deleting)}
          remaining={actions.list.total - 1}
          onConfirm={() => void actions.confirmDelete()}
          onCancel={actions.cancelDelete}
        />
      )}
    </div>
  );
});

export interface TextFilterProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** Enter in the field searches with them. */
  actions: ListActions<unknown>;
  /** The input's form name, where a test or a browser's autofill goes by it. */
  name?: string;
}

/** A typed filter of a list page's bar (a keyword, an operator): Enter searches. */
export function TextFilter({ id, label, value, onChange, actions, name }: TextFilterProps) {
  return (
    <FormGroup label={label} labelFor={id}>
      <InputGroup
        id={id}
        name={name}
        value={value}
        onValueChange={onChange}
        onKeyDown={(e) => void actions.searchOnEnter(e)}
      />
    </FormGroup>
  );
}
