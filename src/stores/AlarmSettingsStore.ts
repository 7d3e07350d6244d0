import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { pagedSchema } from '../contract/paged';
import {
  alarmPlaceSchema,
  type AlarmInputInput,
  type AlarmInputSetting,
  type AlarmPhone,
  type AlarmPhoneInput,
  type AlarmPlace,
  type DeleteResult,
} from '../contract/alarms';
import {
  alarmInputSettingSchema,
  alarmPhoneSchema,
  deleteResultSchema,
} from '../contract/adminAnswers';

export type AlarmSettingKind = 'alarmPhone' | 'alarmInput';

const phonesSchema = pagedSchema(alarmPhoneSchema);
const inputsSchema = pagedSchema(alarmInputSettingSchema);
const placesSchema = z.array(alarmPlaceSchema);

/**
 * The alarm settings page's phones and inputs, and the farms and houses they may be set on.
 * Only that page shows them, so it makes its own store and lets it go when it closes.
 */
export class AlarmSettingsStore {
  /** `null` until the first answer: the tables show "loading", not "none". */
  phones: AlarmPhone[] | null = null;
  inputs: AlarmInputSetting[] | null = null;
  places: AlarmPlace[] = [];

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async reload(): Promise<void> {
    const [phones, inputs] = await Promise.all([
      this.api.get('/alarmPhone/list', { schema: phonesSchema }),
      this.api.get('/alarmInput/list', { schema: inputsSchema }),
    ]);
    runInAction(() => {
      this.phones = phones.rows;
      this.inputs = inputs.rows;
    });
  }

  async loadPlaces(): Promise<void> {
    const places = await this.api.get('/alarm/places', { schema: placesSchema });
    runInAction(() => (this.places = places));
  }

  /** Creates without `id`, updates with it; answers the saved entry as the list shows it. */
  savePhone(body: AlarmPhoneInput & { id?: number }): Promise<AlarmPhone> {
    const schema = alarmPhoneSchema;
    return body.id
      ? this.api.put('/alarmPhone/update', { body, schema })
      : this.api.post('/alarmPhone/create', { body, schema });
  }

  /** Creates without `id`, updates with it; answers the saved entry as the list shows it. */
  saveInput(body: AlarmInputInput & { id?: number }): Promise<AlarmInputSetting> {
    const schema = alarmInputSettingSchema;
    return body.id
      ? this.api.put('/alarmInput/update', { body, schema })
      : this.api.post('/alarmInput/create', { body, schema });
  }

  /** Answers how many entries are left where this one was (the toast says so). */
  remove(kind: AlarmSettingKind, id: number): Promise<DeleteResult> {
    return this.api.delete(`/${kind}/delete`, { body: { id }, schema: deleteResultSchema });
  }
}
