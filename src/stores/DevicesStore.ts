import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { pagedSchema } from '../contract/paged';
import {
  concentratorSchema,
  concentratorStatus,
  deletedSchema,
  maintenanceHistorySchema,
  maintenancePlanSchema,
  terminalSchema,
  terminalStatus,
  type Concentrator,
  type ConcentratorInput,
  type DeviceStatus,
  type LiveForStatus,
  type MaintenanceHistory,
  type MaintenancePlan,
  type MaintenancePlanInput,
  type Terminal,
  type TerminalInput,
} from '../contract/devices';

const concentratorsSchema = pagedSchema(concentratorSchema);
const terminalsSchema = pagedSchema(terminalSchema);
const plansSchema = pagedSchema(maintenancePlanSchema);
const historySchema = pagedSchema(maintenanceHistorySchema);
const completedSchema = z.object({ plan: maintenancePlanSchema.nullable() });

export type DeviceResource = 'concentrator' | 'terminal' | 'maintenance';

/**
 * One house's devices on the Shack Manage page: concentrators, terminal devices, maintenance
 * plans and history. Only that page shows them, so it makes its own store. Statuses are read
 * live from the house's state (`statusOf`), so a fan reporting an error shows as soon as the
 * house's next delta arrives, without asking the server again.
 */
export class DevicesStore {
  houseId: number | null = null;
  search = '';
  /** `null` until the first answer: the tables show "loading", not "none". */
  concentrators: Concentrator[] | null = null;
  terminals: Terminal[] | null = null;
  plans: MaintenancePlan[] | null = null;
  history: MaintenanceHistory[] | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  setSearch(search: string): void {
    this.search = search;
  }

  async open(houseId: number): Promise<void> {
    if (this.houseId !== houseId) {
      this.houseId = houseId;
      this.concentrators = this.terminals = this.plans = null;
      this.history = null;
    }
    await this.reload();
  }

  async reload(): Promise<void> {
    const houseId = this.houseId;
    if (houseId === null) return;
    const query = { houseId, search: this.search || undefined };
    const [concentrators, terminals, plans, history] = await Promise.all([
      this.api.get('/concentrator/list', { query, schema: concentratorsSchema }),
      this.api.get('/terminal/list', { query, schema: terminalsSchema }),
      this.api.get('/maintenance/list', { query: { houseId }, schema: plansSchema }),
      this.api.get('/maintenance/history', { query: { houseId }, schema: historySchema }),
    ]);
    if (houseId !== this.houseId) return;
    runInAction(() => {
      this.concentrators = concentrators.rows;
      this.terminals = terminals.rows;
      this.plans = plans.rows;
      this.history = history.rows;
    });
  }

  /** A terminal device's status now, from the house's live state when there is one. */
  terminalStatus(device: Terminal, live: LiveForStatus | null): DeviceStatus {
    return live ? terminalStatus(live, device.controlPort) : device.status;
  }

  concentratorStatus(c: Concentrator, live: LiveForStatus | null): DeviceStatus {
    if (!live) return c.status;
    const ports = (this.terminals ?? [])
      .filter((d) => d.concentratorId === c.id)
      .map((d) => d.controlPort);
    return concentratorStatus(live, ports);
  }

  saveConcentrator(body: ConcentratorInput & { id?: number }): Promise<Concentrator> {
    const schema = concentratorSchema;
    return body.id
      ? this.api.put('/concentrator/update', { body, schema })
      : this.api.post('/concentrator/create', { body, schema });
  }

  saveTerminal(body: TerminalInput & { id?: number }): Promise<Terminal> {
    const schema = terminalSchema;
    return body.id
      ? this.api.put('/terminal/update', { body, schema })
      : this.api.post('/terminal/create', { body, schema });
  }

  savePlan(body: MaintenancePlanInput & { id?: number }): Promise<MaintenancePlan> {
    const schema = maintenancePlanSchema;
    return body.id
      ? this.api.put('/maintenance/update', { body, schema })
      : this.api.post('/maintenance/create', { body, schema });
  }

  complete(id: number, notes: string): Promise<{ plan: MaintenancePlan | null }> {
    return this.api.post('/maintenance/complete', { body: { id, notes }, schema: completedSchema });
  }

  /** Answers how many are left in the house (the confirmation said so before). */
  remove(resource: DeviceResource, id: number): Promise<{ remaining: number }> {
    return this.api.delete(`/${resource}/delete`, { body: { id }, schema: deletedSchema });
  }
}
