import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { wallMapSchema, type WallFarm } from '../contract/wall';
import {
  kioskCreatedSchema,
  kioskLinkSchema,
  kioskListSchema,
  type KioskCreate,
  type KioskCreated,
  type KioskLink,
} from '../contract/wallKiosk';
import { type WallDisplay } from '../contract/wallLayout';
import { LatestAsk } from './latestAsk';

const revokedSchema = z.null();

/**
 * The wall's kiosk-link dialog: the links there are and the farms a new one may show. Only the
 * dialog uses them, so it keeps its own store while it is mounted.
 */
export class KioskLinksStore {
  /** `null` until the first answer: the table shows nothing rather than "no links". */
  links: KioskLink[] | null = null;
  /** The farms a link may be limited to, by name. */
  farms: WallFarm[] = [];
  /**
   * The list asked for when the dialog opens may answer after the one read again behind a
   * create (seen on a loaded machine): only the latest read's answer is taken.
   */
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
  }

  async load(): Promise<void> {
    const asked = this.latest.ask();
    const links = await this.api.get('/wall/kiosk/list', { schema: kioskListSchema });
    if (!this.latest.isLatest(asked)) return;
    runInAction(() => (this.links = links));
  }

  async loadFarms(): Promise<void> {
    const map = await this.api.get('/wall/map', { schema: wallMapSchema });
    runInAction(() => (this.farms = [...map.farms].sort((a, b) => a.name.localeCompare(b.name))));
  }

  /** Answers the new link with its token, which the server never shows again. */
  async create(input: KioskCreate): Promise<KioskCreated> {
    const created = await this.api.post('/wall/kiosk/create', {
      body: input,
      schema: kioskCreatedSchema,
    });
    // The token is shown once, at once: the new link heads the list (newest first, as the
    // server lists them) and the list is read again behind it. Awaiting that read held the
    // address back for as long as the list took, past 27 s once on a loaded machine, and a
    // failed read (already toasted) must not lose it either.
    runInAction(() => {
      this.links = [created.link, ...(this.links ?? []).filter((l) => l.id !== created.link.id)];
    });
    void this.load().catch(() => undefined);
    return created;
  }

  /** Changes a link's panels and tour; a wall open with it takes them at its next load. */
  async saveDisplay(id: number, display: WallDisplay): Promise<void> {
    await this.api.post('/wall/kiosk/layout', {
      body: { id, ...display },
      schema: kioskLinkSchema,
    });
    await this.load();
  }

  async revoke(id: number): Promise<void> {
    await this.api.post('/wall/kiosk/revoke', { body: { id }, schema: revokedSchema });
    await this.load();
  }
}
