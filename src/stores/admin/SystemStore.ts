import { makeAutoObservable, observable, runInAction } from 'mobx';
import { type z } from 'zod';
import { type ApiClient } from '../../api/client';
import { enrolCodeSchema, type EnrolCode } from '../../contract/enrol';
import { pagedSchema } from '../../contract/paged';
import {
  type AssignableOptions,
  type BreedRow,
  type FarmInput,
  type FarmNode,
  type GatewayInput,
  type GatewayTokenResult,
  type HouseRow,
  type OrgInput,
  type OrgRow,
  type ResetPasswordResult,
  type UserRow,
  type UserSaveInput,
  type breedInputSchema,
  type flockCloseSchema,
  type flockStartSchema,
  type houseInputSchema,
} from '../../contract/admin';
import {
  assignableOptionsSchema,
  breedRowSchema,
  emptyAnswerSchema,
  farmTreeSchema,
  gatewaySavedSchema,
  gatewayTokenSchema,
  houseListSchema,
  idAnswerSchema,
  orgListAllSchema,
  orgRowSchema,
  resetPasswordSchema,
  userRowSchema,
  type GatewaySaved,
  type IdAnswer,
  type Named,
} from '../../contract/adminAnswers';
import { AdminListStore } from '../AdminListStore';
import { BreedDetailStore } from './BreedDetailStore';

export type HouseInput = z.input<typeof houseInputSchema>;
export type FlockStart = z.input<typeof flockStartSchema>;
export type FlockClose = z.input<typeof flockCloseSchema>;
export type BreedInput = z.input<typeof breedInputSchema>;

const NO_OPTIONS: AssignableOptions = { roles: [], companies: [], farms: [], houses: [] };
/** The flock dialog offers every breed the user sees; no one keeps more than a page of 200. */
const BREED_CHOICES = 200;
const breedChoicesSchema = pagedSchema(breedRowSchema);

/**
 * System management's reference data (the farm tree, organisations, breeds to choose, what a
 * user may be given, each farm's houses) and every change its pages make. Several pages read
 * the same lists, so they live here, once, for as long as the session; every answer is parsed
 * with its schema from src/contract/adminAnswers.ts before anything shows it.
 *
 * Writes answer what the server answered (parsed), never `undefined`: pages tell a failed call
 * (already toasted by the client) from a successful one by that.
 */
export class SystemStore {
  farmTree: FarmNode[] = [];
  farmTreeLoaded = false;
  orgs: Named[] = [];
  breedChoices: BreedRow[] = [];
  assignable: AssignableOptions = NO_OPTIONS;
  /** The houses of each farm whose panel was opened, by farm id. */
  readonly housesByFarm = observable.map<number, HouseRow[]>();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false, housesByFarm: false });
  }

  // ---------------------------------------------------------------- paged lists of the pages

  /** Each list page keeps its own paging and filters, so each gets a list of its own. */
  orgList<F extends Record<string, string>>(filters: F): AdminListStore<OrgRow, F> {
    return new AdminListStore(this.api, '/org/list', filters, orgRowSchema);
  }

  userList<F extends Record<string, string>>(filters: F): AdminListStore<UserRow, F> {
    return new AdminListStore(this.api, '/user/list', filters, userRowSchema);
  }

  breedList<F extends Record<string, string>>(filters: F): AdminListStore<BreedRow, F> {
    return new AdminListStore(this.api, '/breed/list', filters, breedRowSchema);
  }

  /** The open breed of the poultry page: the page's own, gone with it. */
  breedDetail(): BreedDetailStore {
    return new BreedDetailStore(this.api);
  }

  // ---------------------------------------------------------------- reference lists

  async loadFarmTree(): Promise<FarmNode[]> {
    const tree = await this.api.get('/farm/tree', { schema: farmTreeSchema });
    runInAction(() => {
      this.farmTree = tree;
      this.farmTreeLoaded = true;
    });
    return tree;
  }

  async loadOrgs(): Promise<Named[]> {
    const orgs = await this.api.get('/org/listAll', { schema: orgListAllSchema });
    runInAction(() => (this.orgs = orgs));
    return orgs;
  }

  async loadBreedChoices(): Promise<BreedRow[]> {
    const page = await this.api.get('/breed/list', {
      query: { size: BREED_CHOICES },
      schema: breedChoicesSchema,
    });
    runInAction(() => (this.breedChoices = page.rows));
    return page.rows;
  }

  async loadAssignable(): Promise<AssignableOptions> {
    const options = await this.api.get('/user/assignable', { schema: assignableOptionsSchema });
    runInAction(() => (this.assignable = options));
    return options;
  }

  /** The houses of a farm, once loaded; another farm's rows never stand in for them. */
  housesOf(farmId: number): HouseRow[] {
    return this.housesByFarm.get(farmId) ?? [];
  }

  async loadHouses(farmId: number): Promise<HouseRow[]> {
    const page = await this.api.get('/house/listByFarm', {
      query: { farmId },
      schema: houseListSchema,
    });
    runInAction(() => this.housesByFarm.set(farmId, page.rows));
    return page.rows;
  }

  // ---------------------------------------------------------------- organisations

  saveOrg(input: OrgInput): Promise<OrgRow> {
    return input.id === undefined
      ? this.api.post('/org/create', { body: input, schema: orgRowSchema })
      : this.api.put('/org/update', { body: input, schema: orgRowSchema });
  }

  deleteOrg(id: number): Promise<null> {
    return this.api.delete('/org/delete', { body: { id }, schema: emptyAnswerSchema });
  }

  // ---------------------------------------------------------------- users

  saveUser(input: UserSaveInput): Promise<IdAnswer> {
    return this.api.post('/user/save', { body: input, schema: idAnswerSchema });
  }

  deleteUser(id: number): Promise<null> {
    return this.api.delete('/user/delete', { body: { id }, schema: emptyAnswerSchema });
  }

  resetPassword(id: number): Promise<ResetPasswordResult> {
    return this.api.put('/user/resetPwd', { body: { id }, schema: resetPasswordSchema });
  }

  // ---------------------------------------------------------------- farms, houses, gateways

  saveFarm(input: FarmInput): Promise<IdAnswer> {
    return input.id === undefined
      ? this.api.post('/farm/create', { body: input, schema: idAnswerSchema })
      : this.api.put('/farm/update', { body: input, schema: idAnswerSchema });
  }

  deleteFarm(id: number): Promise<null> {
    return this.api.delete('/farm/delete', { body: { id }, schema: emptyAnswerSchema });
  }

  saveHouse(input: HouseInput): Promise<IdAnswer> {
    return input.id === undefined
      ? this.api.post('/house/create', { body: input, schema: idAnswerSchema })
      : this.api.put('/house/update', { body: input, schema: idAnswerSchema });
  }

  deleteHouse(id: number): Promise<null> {
    return this.api.delete('/house/delete', { body: { id }, schema: emptyAnswerSchema });
  }

  /** A new gateway answers its device token, shown once; an update answers no token. */
  saveGateway(input: GatewayInput): Promise<GatewaySaved> {
    return this.api.post('/gateway/save', { body: input, schema: gatewaySavedSchema });
  }

  rotateToken(gatewayId: number): Promise<GatewayTokenResult> {
    return this.api.put('/gateway/rotateToken', {
      body: { id: gatewayId },
      schema: gatewayTokenSchema,
    });
  }

  /** A single-use code Roost Edge trades for this gateway's credentials, shown once. */
  enrolCode(gatewayId: number): Promise<EnrolCode> {
    return this.api.put('/gateway/enrolCode', { body: { id: gatewayId }, schema: enrolCodeSchema });
  }

  startFlock(input: FlockStart): Promise<IdAnswer> {
    return this.api.post('/flock/start', { body: input, schema: idAnswerSchema });
  }

  closeFlock(input: FlockClose): Promise<null> {
    return this.api.put('/flock/close', { body: input, schema: emptyAnswerSchema });
  }

  // ---------------------------------------------------------------- breeds

  saveBreed(input: BreedInput): Promise<BreedRow> {
    return input.id === undefined
      ? this.api.post('/breed/create', { body: input, schema: breedRowSchema })
      : this.api.put('/breed/update', { body: input, schema: breedRowSchema });
  }

  /** A copy of a (common) breed the caller may then change; answers the new breed. */
  copyBreed(id: number): Promise<BreedRow> {
    return this.api.post('/breed/copy', { body: { id }, schema: breedRowSchema });
  }

  deleteBreed(id: number): Promise<null> {
    return this.api.delete('/breed/delete', { body: { id }, schema: emptyAnswerSchema });
  }

  /** Signed out: the next user sees another part of the tree. */
  reset(): void {
    this.farmTree = [];
    this.farmTreeLoaded = false;
    this.orgs = [];
    this.breedChoices = [];
    this.assignable = NO_OPTIONS;
    this.housesByFarm.clear();
  }
}
