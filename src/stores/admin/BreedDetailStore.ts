import { makeAutoObservable, runInAction } from 'mobx';
import { type ApiClient } from '../../api/client';
import { type BreedDetail, type BreedTargetRow } from '../../contract/admin';
import { breedDetailSchema, emptyAnswerSchema } from '../../contract/adminAnswers';

/**
 * The breed the poultry page has open: its per-age grid and immune reminders. Only that page
 * shows it, so it lives as long as the page does.
 */
export class BreedDetailStore {
  detail: BreedDetail | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async open(id: number): Promise<BreedDetail> {
    const detail = await this.api.get('/breed/get', { query: { id }, schema: breedDetailSchema });
    runInAction(() => (this.detail = detail));
    return detail;
  }

  close(): void {
    this.detail = null;
  }

  /** Closes the breed if it is the one shown (it was deleted). */
  forget(id: number): void {
    if (this.detail?.id === id) this.detail = null;
  }

  /**
   * Saves the grid, then the reminders: two calls, as the server keeps them apart. The first
   * failure stops the second, so a refused grid never leaves reminders saved beside it.
   */
  async save(
    breedId: number,
    rows: BreedTargetRow[],
    immune: Array<{ ageDay: number; content: string }>,
  ): Promise<true> {
    await this.api.put('/breed/saveTargets', {
      body: { breedId, rows },
      schema: emptyAnswerSchema,
    });
    await this.api.put('/breed/saveImmune', {
      body: { breedId, rows: immune },
      schema: emptyAnswerSchema,
    });
    return true;
  }
}
