import { useEffect, useState } from 'react';
import { makeAutoObservable, observableRef } from 'mobx';
import { useTranslation } from 'react-i18next';
import { notifySuccess, quietly } from './system/parts/notify';

/** The part of a paged list (an `AdminListStore`) that its page's search, saves and deletes use. */
export interface ActionList {
  total: number;
  load(page?: number): Promise<unknown>;
  reloadAfterDelete(deleted?: boolean): Promise<unknown>;
}

/** What a list page tells the user after a change went through. */
export type ListChange = 'saved' | 'deleted';

/** How a list page deletes one of its rows. */
export interface ListDeletes<Row> {
  /** Deletes the row on the server; a failure was already shown by the API client. */
  remove(row: Row): Promise<unknown>;
  /** The row's name in the confirmation. */
  nameOf(row: Row): string;
  /** After the server confirmed the delete (the poultry page forgets the breed it showed). */
  onDeleted?(row: Row): void;
}

/**
 * What every list page of the console does around its table: search (the Search button, Enter
 * in a filter field), the edit dialog's row, save → "saved" → the page read again, and delete
 * → confirm → "deleted" → the page read again. A page keeps only what is its own: its columns,
 * its dialog and its other actions.
 */
export class ListActions<Row> {
  /** The row in the edit dialog, 'new' for a new one, null while the dialog is closed. */
  editing: Row | 'new' | null = null;
  /** The row the delete confirmation asks about, null while it is closed. */
  deleting: Row | null = null;
  /** The page has been shown before: a kept tab (src/console/layout/KeptPages.tsx). */
  private shownBefore = false;

  /**
   * `notify` tells the user a change went through (a toast in the console). Without `deletes`
   * the page deletes nothing (the operation log) and shows no confirmation.
   */
  constructor(
    readonly list: ActionList,
    private readonly notify: (change: ListChange) => void,
    readonly deletes?: ListDeletes<Row>,
  ) {
    // The rows stay the list's own objects (a reference, not an observable copy); the methods
    // are bound, so a page hands `actions.closeEdit` to a dialog as it is.
    makeAutoObservable<this, 'notify' | 'shownBefore'>(
      this,
      {
        editing: observableRef,
        deleting: observableRef,
        list: false,
        notify: false,
        deletes: false,
        shownBefore: false,
      },
      { autoBind: true },
    );
  }

  /** Page 1 with the filters as they stand: the Search button, Enter, and the first visit. */
  search(): Promise<unknown> {
    return quietly(() => this.list.load(1));
  }

  /**
   * The page is shown: page 1 the first time; a kept tab shown again reads the list page it
   * was left on afresh, so the user comes back to where they were.
   */
  shown(): Promise<unknown> {
    if (!this.shownBefore) {
      this.shownBefore = true;
      return this.search();
    }
    return quietly(() => this.list.load());
  }

  /** A key pressed in a filter field: Enter searches (resolved once the page is read). */
  searchOnEnter(event: { key: string }): Promise<unknown> {
    return event.key === 'Enter' ? this.search() : Promise.resolve();
  }

  edit(row: Row | 'new'): void {
    this.editing = row;
  }

  closeEdit(): void {
    this.editing = null;
  }

  /**
   * Runs a save; when it went through the user is told and the page is read again. Resolves
   * whether it went through: an edit dialog closes on true and stays open on false.
   */
  async save(call: () => Promise<unknown>): Promise<boolean> {
    if ((await quietly(call)) === undefined) return false;
    await this.changed();
    return true;
  }

  /** After a change the page made itself (a copy, an upload): "saved", the page read again. */
  async changed(): Promise<void> {
    this.notify('saved');
    await quietly(() => this.list.load());
  }

  askDelete(row: Row): void {
    this.deleting = row;
  }

  cancelDelete(): void {
    this.deleting = null;
  }

  /** The confirmation's yes: deletes the row it asked about, then reads the page again. */
  async confirmDelete(): Promise<void> {
    const row = this.deleting;
    const deletes = this.deletes;
    if (row === null || !deletes) return;
    this.deleting = null;
    const deleted = (await quietly(() => deletes.remove(row))) !== undefined;
    if (deleted) {
      deletes.onDeleted?.(row);
      this.notify('deleted');
    }
    // Also after a failure: a request that timed out may have deleted it all the same.
    await quietly(() => this.list.reloadAfterDelete(deleted));
  }
}

/**
 * A list page's actions on its list, which is read (page 1) when the page opens, and read again
 * at the page it was on when a kept tab shows it again. `deletes` is
 * taken at the first render: its functions reach stores, never the page's render state.
 */
export function useListActions<Row>(
  list: ActionList,
  deletes?: ListDeletes<Row>,
): ListActions<Row> {
  const { i18n } = useTranslation();
  const [actions] = useState(
    () =>
      new ListActions<Row>(
        list,
        (change) => notifySuccess(i18n.t(`admin.common.${change}`)),
        deletes,
      ),
  );
  useEffect(() => void actions.shown(), [actions]);
  return actions;
}
