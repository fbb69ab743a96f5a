/**
 * react-admin dataProvider for the /api contract (docs/api.md):
 *
 * | react-admin call     | request                                                                 |
 * |----------------------|-------------------------------------------------------------------------|
 * | getList              | GET /api/{r}?page&per_page&sort&order&search&filter={json}(&cursor)       |
 * | getOne               | GET /api/{r}/{id}                                                         |
 * | getMany              | GET /api/{r}?per_page=-1&filter={"id":[...]}                              |
 * | getManyReference     | GET /api/{r}?...&filter={...filter, [target]: id}                         |
 * | create               | POST /api/{r} (multipart when a file is present)                          |
 * | update               | POST /api/{r}/{id}                                                        |
 * | updateMany           | one update per id                                                         |
 * | delete               | DELETE /api/{r}/{id}(?meta.query)                                         |
 * | deleteMany           | one delete per id                                                         |
 * | restore              | POST /api/{r}/{id}/restore                                                |
 * | action               | {method} /api/{r}/{id}/{action} (complete, dismiss, share, reorder, ...)  |
 * | getBoard             | GET /api/records/{r}/board?by&columns=[...]&<list query> (a kanban)      |
 * | defaultView          | GET /api/views/default?record_type= (the view a list opens in)            |
 * | chooseDefaultView    | PUT /api/views/default {record_type, view_id} (the person's own choice)   |
 * | setRoleDefaults      | PUT /api/views/role-defaults {view_id, role_ids} (roles' default view)    |
 * | named methods        | the other /api paths (config, schemas, map, imports, history...)          |
 *
 * The server's success message travels in `meta.message` of create/update/delete/restore results; `meta.headers` of
 * a create or update are sent with it (the offline outbox's Idempotency-Key).
 */
import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  UpdateManyParams,
  UpdateParams,
} from 'react-admin';
import type { TypeOutlook } from '../../common/access-rules';
import type { SystemStatus } from '../../common/system-status';
import type { HttpClient, Method, RequestOptions } from '../http/client';
import type { Query } from '../http/query';
import { type AssistantMethods, assistantMethods } from './assistantMethods';
import { type HistoryMethods, historyMethods } from './historyMethods';
import { type ImportMethods, importMethods } from './importMethods';
import { type InsightMethods, insightMethods } from './insightMethods';
import { type MapMethods, mapMethods } from './mapMethods';
import { createPageCursors } from './pageCursors';
import { type PeopleMethods, peopleMethods } from './peopleMethods';

export interface ListMeta {
  current_page?: number;
  from?: number | null;
  to?: number | null;
  per_page?: number;
  total?: number;
  last_page?: number;
  /** Sent as `cursor=` with the next page of the same list (pageCursors.ts). */
  next_cursor?: string;
}

/** A list's groups as the server answers them (server views/group-routes.ts). */
export interface ListGroups {
  data: Array<{ value: string | number | boolean | null; count: number; sums: Record<string, number> }>;
  meta: { group_by: string; total: number; sums: Record<string, number> };
}

/** The view a person's list of a type opens in, and whose choice it is (GET /api/views/default). */
export interface DefaultView {
  view: { id: number; name: string } | null;
  source: 'person' | 'role' | null;
}

/** A kanban's first page of every column, as the server answers it (server views/board-routes.ts). */
export interface Board {
  data: Array<{ value: string | number | null; total: number; data: any[] }>;
  meta: { by: string };
}

interface ListAnswer<T = any> {
  data: T[];
  meta?: ListMeta;
}

interface RecordAnswer<T = any> {
  data: T;
  message?: string;
}

export interface ActionParams {
  id?: string | number;
  /** Last path segment: complete, dismiss, share, contacts, change-type, reorder, download, goals, attachments... */
  action: string;
  method?: Method;
  data?: unknown;
  query?: Query;
}

/** The CRUD of every resource and the calls every screen shares; the feature groups are in their own files. */
interface CoreDataProvider extends DataProvider {
  restore(resource: string, params: { id: string | number; meta?: any }): Promise<{ data: any; meta?: any }>;
  action(resource: string, params: ActionParams): Promise<{ data: any; meta?: any }>;
  getConfig(): Promise<any>;
  getFeatures(): Promise<any[]>;
  getSchemas(): Promise<any[]>;
  getStatistics(query?: Query): Promise<Record<string, unknown>>;
  /** A list grouped by a field: each value's count and sums, and the list's (GET /api/records/{resource}/groups). */
  listGroups(resource: string, query: Query, signal?: AbortSignal): Promise<ListGroups>;
  /** A kanban's first page and count of every column in one request (GET /api/records/{resource}/board). */
  getBoard(resource: string, query: Query, signal?: AbortSignal): Promise<Board>;
  /** The view the person's list of a record type opens in: their own choice, else their role's default. */
  defaultView(recordType: string, signal?: AbortSignal): Promise<DefaultView>;
  /** The person opens the type's list in this view from now on; null: in their role's default again. */
  chooseDefaultView(recordType: string, viewId: number | null): Promise<DefaultView>;
  /** One who manages roles makes a view they read (anyone's) the default of these roles; the view as it is after. */
  setRoleDefaults(viewId: number, roleIds: number[]): Promise<{ data: any; message: string }>;
  /** The server's health for administrators: database, queue, backups (GET /api/system/status). */
  systemStatus(): Promise<SystemStatus>;
  updateProfile(data: Record<string, unknown>): Promise<{ data: any; message: string }>;
  options(name: string, query?: Query, signal?: AbortSignal): Promise<any[]>;
  /** Keeps one of the signed-in person's settings (a list's columns, records/grid/preferences.ts); null removes it. */
  savePreference(key: string, value: unknown): Promise<void>;
  /** What a field change would do (records, logic, importers); without `change`, what deleting the field would. */
  fieldImpact(fieldId: number | string, change?: Record<string, unknown>): Promise<any>;
  /** What deleting a record type would do. */
  typeImpact(schemaId: number | string): Promise<any>;
  /** The record types a role's rules are written for (the role screen's matrix). */
  accessTypes(): Promise<any[]>;
  /** What a person would see with a role as it stands on the screen, before it is saved. */
  seeAs(request: { user_id: number; permissions: string[]; policy: unknown }): Promise<TypeOutlook[]>;
  /** The signed-in person's personal access tokens (profile/TokensSection.tsx); making one answers its secret once. */
  tokens(): Promise<any[]>;
  createToken(request: { name: string; abilities: readonly string[]; expires_at: string | null }): Promise<string>;
  revokeToken(id: number | string): Promise<void>;
}

/** react-admin's data provider with named methods for what is not CRUD (as marmelab's atomic-crm does). */
export interface AppDataProvider
  extends CoreDataProvider,
    AssistantMethods,
    HistoryMethods,
    ImportMethods,
    InsightMethods,
    MapMethods,
    PeopleMethods {}

const enc = (value: string | number) => encodeURIComponent(String(value));
const resourcePath = (resource: string) => `/api/${resource.split('/').map(enc).join('/')}`;

/** react-admin's sort/pagination/filter -> the list query of the contract. */
export function listQuery(params: Partial<GetListParams>): Query {
  const query: Query = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.per_page = params.pagination.perPage;
  }
  if (params.sort?.field) {
    query.sort = params.sort.field;
    query.order = params.sort.order === 'DESC' ? 'desc' : 'asc';
  }
  // `filters`: view filters (AND/OR conditions, `filters=`), as an assistant's answer links them.
  const { q, filters, ...filter } = (params.filter ?? {}) as Record<string, unknown>;
  if (typeof q === 'string' && q.trim()) query.search = q.trim();
  if (Object.keys(filter).length > 0) query.filter = filter;
  if (filters && typeof filters === 'object') query.filters = filters as Record<string, unknown>;
  const extra = params.meta?.query as Query | undefined;
  return extra ? { ...query, ...extra } : query;
}

function isFileLike(value: unknown): boolean {
  return (
    (typeof Blob !== 'undefined' && value instanceof Blob) ||
    (typeof value === 'object' &&
      value !== null &&
      'rawFile' in value &&
      (value as { rawFile: unknown }).rawFile instanceof Blob)
  );
}

function containsFile(data: unknown): boolean {
  if (!data || typeof data !== 'object') return false;
  return Object.values(data as Record<string, unknown>).some(
    (value) => isFileLike(value) || (Array.isArray(value) && value.some(isFileLike)),
  );
}

/** Multipart body: files (react-admin's `{rawFile}` too), arrays as `key[]`, objects as JSON, booleans as 1/0. */
export function toFormData(data: Record<string, unknown>): FormData {
  const form = new FormData();
  const append = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) form.append(key, '');
    else if (typeof Blob !== 'undefined' && value instanceof Blob)
      form.append(key, value, (value as File).name ?? 'file');
    else if (typeof value === 'object' && value !== null && 'rawFile' in value)
      append(key, (value as { rawFile: unknown }).rawFile);
    else if (typeof value === 'boolean') form.append(key, value ? '1' : '0');
    else if (typeof value === 'object') form.append(key, JSON.stringify(value));
    else form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) value.forEach((item) => append(`${key}[]`, item));
    else append(key, value);
  }
  return form;
}

const bodyFor = (data: unknown) => (containsFile(data) ? toFormData(data as Record<string, unknown>) : data);

export function createDataProvider(http: HttpClient): AppDataProvider {
  const cursors = createPageCursors();
  const list = async (resource: string, params: Partial<GetListParams>, signal?: AbortSignal) => {
    const path = resourcePath(resource);
    const query = listQuery(params);
    const response = await http.get<ListAnswer>(path, { query: cursors.withCursor(path, query), signal });
    const body = response.data;
    cursors.remember(path, query, body?.meta?.next_cursor);
    const data = Array.isArray(body?.data) ? body.data : [];
    const meta = body?.meta;
    const total = typeof meta?.total === 'number' ? meta.total : data.length;
    const page = meta?.current_page ?? params.pagination?.page ?? 1;
    const lastPage = meta?.last_page ?? page;
    return { data, total, pageInfo: { hasNextPage: page < lastPage, hasPreviousPage: page > 1 }, meta };
  };

  const mutationResult = (answer: RecordAnswer | null, fallback: any) => ({
    data: answer?.data ?? fallback,
    meta: answer?.message ? { message: answer.message } : undefined,
  });

  const provider: CoreDataProvider = {
    supportAbortSignal: true,

    getList: (resource, params: GetListParams) => list(resource, params, params.signal),

    async getOne(resource, params: GetOneParams) {
      const response = await http.get<RecordAnswer>(`${resourcePath(resource)}/${enc(params.id)}`, {
        signal: params.signal,
        query: params.meta?.query,
      });
      return { data: response.data.data };
    },

    async getMany(resource, params: GetManyParams) {
      if (params.ids.length === 0) return { data: [] };
      const result = await list(
        resource,
        { filter: { id: params.ids }, pagination: { page: 1, perPage: -1 }, meta: params.meta },
        params.signal,
      );
      return { data: result.data };
    },

    async getManyReference(resource, params: GetManyReferenceParams) {
      const result = await list(
        resource,
        { ...params, filter: { ...params.filter, [params.target]: params.id } },
        params.signal,
      );
      return result;
    },

    async create(resource, params: CreateParams) {
      const response = await http.post<RecordAnswer>(resourcePath(resource), bodyFor(params.data), {
        query: params.meta?.query,
        headers: params.meta?.headers,
      });
      return mutationResult(response.data, { ...params.data, id: undefined });
    },

    async update(resource, params: UpdateParams) {
      const response = await http.post<RecordAnswer>(
        `${resourcePath(resource)}/${enc(params.id)}`,
        bodyFor(params.data),
        { query: params.meta?.query, headers: params.meta?.headers },
      );
      return mutationResult(response.data, { ...params.previousData, ...params.data, id: params.id });
    },

    async updateMany(resource, params: UpdateManyParams) {
      await Promise.all(
        params.ids.map((id) =>
          http.post(`${resourcePath(resource)}/${enc(id)}`, bodyFor(params.data), { query: params.meta?.query }),
        ),
      );
      return { data: params.ids };
    },

    async delete(resource, params: DeleteParams) {
      const response = await http.delete<RecordAnswer | null>(`${resourcePath(resource)}/${enc(params.id)}`, {
        query: params.meta?.query,
      });
      return mutationResult(response.data, params.previousData ?? { id: params.id });
    },

    async deleteMany(resource, params: DeleteManyParams) {
      await Promise.all(
        params.ids.map((id) => http.delete(`${resourcePath(resource)}/${enc(id)}`, { query: params.meta?.query })),
      );
      return { data: params.ids };
    },

    async restore(resource, params) {
      const response = await http.post<RecordAnswer>(`${resourcePath(resource)}/${enc(params.id)}/restore`, undefined, {
        query: params.meta?.query,
      });
      return mutationResult(response.data, { id: params.id });
    },

    async action(resource, { id, action, method = 'POST', data, query }) {
      const path = [resourcePath(resource), id !== undefined ? enc(id) : null, action.split('/').map(enc).join('/')]
        .filter(Boolean)
        .join('/');
      const options: RequestOptions = { query };
      if (method !== 'GET' && method !== 'DELETE') options.body = bodyFor(data);
      const response = await http.request<RecordAnswer | null>(method, path, options);
      return mutationResult(response.data, null);
    },

    async getConfig() {
      const response = await http.get<any>('/api/system/config');
      return response.data?.data ?? response.data;
    },

    async getFeatures() {
      const response = await http.get<ListAnswer>('/api/features', { query: { per_page: -1 } });
      return response.data?.data ?? [];
    },

    async getSchemas() {
      const response = await http.get<ListAnswer>('/api/schemas', { query: { per_page: -1 } });
      return response.data?.data ?? [];
    },

    async listGroups(resource, query, signal) {
      const response = await http.get<ListGroups>(`/api/records/${enc(resource)}/groups`, { query, signal });
      return response.data;
    },

    async getBoard(resource, query, signal) {
      const response = await http.get<Board>(`/api/records/${enc(resource)}/board`, { query, signal });
      return response.data;
    },
    async defaultView(recordType, signal) {
      const query = { record_type: recordType };
      return (await http.get<{ data: DefaultView }>('/api/views/default', { query, signal })).data.data;
    },
    async chooseDefaultView(recordType, viewId) {
      const body = { record_type: recordType, view_id: viewId };
      return (await http.put<{ data: DefaultView }>('/api/views/default', body)).data.data;
    },
    async setRoleDefaults(viewId, roleIds) {
      const body = { view_id: viewId, role_ids: roleIds };
      return (await http.put<{ data: any; message: string }>('/api/views/role-defaults', body)).data;
    },
    async getStatistics(query) {
      const response = await http.get<{ data: Record<string, unknown> }>('/api/dashboard/statistics', { query });
      return response.data?.data ?? {};
    },

    async systemStatus() {
      return (await http.get<{ data: SystemStatus }>('/api/system/status')).data.data;
    },

    async updateProfile(data) {
      const response = await http.post<RecordAnswer>('/api/profile', data);
      return { data: response.data.data, message: response.data.message ?? 'Settings updated successfully.' };
    },

    async options(name, query, signal) {
      const response = await http.get<{ data: any[] } | any[]>(`/api/options/${enc(name)}`, { query, signal });
      const body = response.data;
      return Array.isArray(body) ? body : (body?.data ?? []);
    },

    async savePreference(key, value) {
      await http.post('/api/profile/preferences', { key, value });
    },

    async fieldImpact(fieldId, change) {
      const path = `/api/schema-fields/${enc(fieldId)}/impact`;
      const response = change
        ? await http.post<{ data: unknown }>(path, change)
        : await http.get<{ data: unknown }>(path);
      return response.data.data;
    },

    async typeImpact(schemaId) {
      return (await http.get<{ data: unknown }>(`/api/schemas/${enc(schemaId)}/impact`)).data.data;
    },

    async accessTypes() {
      return (await http.get<{ data: any[] }>('/api/access/types')).data.data;
    },

    async seeAs(request) {
      return (await http.post<{ data: TypeOutlook[] }>('/api/access/see-as', request)).data.data;
    },

    async tokens() {
      return (await http.get<{ data: any[] }>('/api/tokens')).data.data;
    },

    async createToken(request) {
      return (await http.post<{ plain_text_token: string }>('/api/tokens', request)).data.plain_text_token;
    },

    async revokeToken(id) {
      await http.delete(`/api/tokens/${enc(id)}`);
    },
  };
  return {
    ...provider,
    ...assistantMethods(http),
    ...historyMethods(http),
    ...importMethods(http),
    ...insightMethods(http),
    ...mapMethods(http),
    ...peopleMethods(http),
  };
}
