import { makeAutoObservable, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { fetchPublicConfig } from '../api/endpoints';
import { type PublicConfig } from '../contract/config';
import { type Edition } from '../contract/editions';

/** GET /api/config: the server's edition and flags, loaded once. */
export class ConfigStore {
  config: PublicConfig | null = null;
  private pending: Promise<PublicConfig | null> | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<ConfigStore, 'api' | 'pending'>(this, { api: false, pending: false });
  }

  get edition(): Edition {
    return this.config?.edition ?? 'default';
  }

  get alarmScreen(): boolean {
    return this.config?.alarmScreen ?? false;
  }

  /** Loads the config once; a failure (already toasted) leaves the defaults and may be retried. */
  ensureLoaded(): Promise<PublicConfig | null> {
    if (this.config) return Promise.resolve(this.config);
    this.pending ??= fetchPublicConfig(this.api).then(
      (config) => {
        runInAction(() => (this.config = config));
        return config;
      },
      () => {
        this.pending = null;
        return null;
      },
    );
    return this.pending;
  }
}
