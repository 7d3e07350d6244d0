import { makeAutoObservable, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { ackPageSchema, type AckPage } from '../contract/notify';

/**
 * The acknowledge link's page: the alarm the signed link names, and the one tap that
 * acknowledges it. No session: the token in the address is the whole permission.
 */
export class AckLinkStore {
  alarm: AckPage | null = null;
  /** Why the link cannot be used (the server's words, in the page's language). */
  refusal: string | null = null;
  busy = false;

  constructor(
    private readonly api: ApiClient,
    private readonly token: string,
  ) {
    makeAutoObservable<this, 'api' | 'token'>(this, { api: false, token: false });
  }

  private refuse(error: unknown): void {
    if (!isApiError(error)) throw error;
    runInAction(() => (this.refusal = error.message));
  }

  async load(): Promise<void> {
    try {
      const alarm = await this.api.get(`/notify/ack/${encodeURIComponent(this.token)}`, {
        schema: ackPageSchema,
        quiet: () => true,
      });
      runInAction(() => (this.alarm = alarm));
    } catch (error) {
      this.refuse(error);
    }
  }

  async acknowledge(comment: string): Promise<void> {
    this.busy = true;
    try {
      const alarm = await this.api.post('/notify/ack', {
        body: { token: this.token, comment: comment.trim() || undefined },
        schema: ackPageSchema,
        quiet: () => true,
      });
      runInAction(() => (this.alarm = alarm));
    } catch (error) {
      this.refuse(error);
      // Someone else may have acknowledged it meanwhile: show the alarm as it is now.
      await this.load();
    } finally {
      runInAction(() => (this.busy = false));
    }
  }
}
