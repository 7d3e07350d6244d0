import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient, type Query } from '../api/client';
import { pagedSchema, type Paged } from '../contract/paged';
import { LatestAsk } from './latestAsk';

/** Rows per page of the system-management tables. */
export const ADMIN_PAGE_SIZE = 20;

/**
 * One paged, filtered list of system management (answered as `{ rows, total }`). Each page
 * makes its own: the lists live as long as the page.
 */
export class AdminListStore<Row, F extends Record<string, string>> {
  rows: Row[] = [];
  total = 0;
  page = 1;
  readonly size = ADMIN_PAGE_SIZE;
  filters: F;
  loaded = false;
  /** Only the latest load's answer shows. */
  private readonly latest = new LatestAsk();
  private readonly answer: z.ZodType<Paged<Row>>;

  /**
   * `row` parses each row of the answer: a list refuses an answer whose rows are not what it
   * shows. Without one only the `{ rows, total }` frame is checked; that is left only to a
   * list whose row shape is still being changed elsewhere.
   */
  constructor(
    private readonly api: ApiClient,
    private readonly path: string,
    private readonly initial: F,
    row?: z.ZodType<Row>,
  ) {
    this.filters = { ...initial };
    this.answer = pagedSchema(row ?? z.unknown()) as z.ZodType<Paged<Row>>;
    makeAutoObservable<this, 'api' | 'path' | 'initial' | 'answer' | 'latest'>(this, {
      api: false,
      path: false,
      initial: false,
      answer: false,
      latest: false,
    });
  }

  get pages(): number {
    return Math.max(1, Math.ceil(this.total / this.size));
  }

  /** The filters as a query; empty values are left out (the server treats absent as "all"). */
  get query(): Query {
    const query: Query = {};
    for (const [key, value] of Object.entries(this.filters)) if (value !== '') query[key] = value;
    return query;
  }

  setFilter<K extends keyof F>(key: K, value: F[K]): void {
    this.filters[key] = value;
  }

  resetFilters(): void {
    this.filters = { ...this.initial };
  }

  async load(page = this.page): Promise<void> {
    const asked = this.latest.ask();
    const data = await this.api.get(this.path, {
      query: { ...this.query, page, size: this.size },
      schema: this.answer,
    });
    // An answer that comes after a later load's was asked for is older than what may show.
    if (!this.latest.isLatest(asked)) return;
    runInAction(() => {
      this.rows = data.rows;
      this.total = data.total;
      this.page = page;
      this.loaded = true;
    });
  }

  /**
   * After a delete the last page may be empty: step back one. After a failed one (`deleted`
   * false) the page is read again as it is: a request that timed out in the console may still
   * have deleted the row on the server, and the list shows what is stored.
   */
  async reloadAfterDelete(deleted = true): Promise<void> {
    if (!deleted) return this.load();
    const lastPage = Math.max(1, Math.ceil((this.total - 1) / this.size));
    await this.load(Math.min(this.page, lastPage));
  }
}
