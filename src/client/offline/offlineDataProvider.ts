/**
 * The data provider's offline side: creates and updates of the record types people work on in the field (visits,
 * notes, sites) carry an Idempotency-Key, and when there is no connection, or no answer came, they go into the
 * outbox under that key instead of failing (a write whose answer was lost may have arrived: its key keeps the
 * second attempt from writing again). A read with no connection comes from what the device keeps (keptRecords.ts):
 * the kept sites and the records they name, so a form opened offline shows its site and contractors by name and its
 * pickers offer what is known, not a network error.
 */
import type { CreateParams, UpdateParams } from 'react-admin';
import { isApiError } from '../http/errors';
import type { AppDataProvider } from '../providers/dataProvider';
import { type KeptRecord, keptPage, keptRecordsOf } from './keptRecords';
import { newKey } from './outbox';
import { offline } from './runtime';
import { idempotencyHeaders } from './send';

export const OFFLINE_RESOURCES: ReadonlySet<string> = new Set(['visits', 'notes', 'sites']);
export const SAVED_ON_DEVICE = 'Saved on this device. It will be sent when the connection returns.';

const noAnswer = (error: unknown) => isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
const hasFile = (data: Record<string, unknown>) =>
  Object.values(data).some(
    (value) =>
      (typeof Blob !== 'undefined' && value instanceof Blob) ||
      (typeof value === 'object' && value !== null && 'rawFile' in value),
  );

function labelFor(resource: string, data: Record<string, any>, id?: unknown): string {
  if (resource === 'visits')
    return `Visit${data.visited_at ? ` on ${new Date(data.visited_at).toLocaleString()}` : ''}`;
  if (resource === 'notes') return `Note: ${String(data.body ?? '').slice(0, 60)}`;
  if (resource === 'sites') return `Changes to ${data.name ? String(data.name) : `site #${id}`}`;
  return resource;
}

export function withOffline(provider: AppDataProvider): AppDataProvider {
  const captures = (resource: string, data: Record<string, unknown>) =>
    OFFLINE_RESOURCES.has(resource) && offline.signedInUserId !== null && !hasFile(data);

  /** Sends with a key; keeps it in the outbox under the same key when there is no connection or no answer. */
  async function write<T>(
    kind: 'create' | 'update',
    resource: string,
    data: Record<string, any>,
    id: unknown,
    base: Record<string, unknown> | undefined,
    send: (meta: Record<string, unknown>) => Promise<T>,
    answer: () => T,
  ): Promise<T> {
    const key = newKey();
    const keep = async () => {
      await offline.capture({
        key,
        resource,
        kind,
        id: id as number | undefined,
        data,
        base,
        label: labelFor(resource, { ...base, ...data }, id),
      });
      return answer();
    };
    if (!offline.online) return keep();
    try {
      return await send({ headers: idempotencyHeaders(key) });
    } catch (error) {
      if (!noAnswer(error)) throw error;
      offline.unreachable();
      return keep();
    }
  }

  return {
    ...provider,

    create(resource, params: CreateParams) {
      if (!captures(resource, params.data)) return provider.create(resource, params);
      return write(
        'create',
        resource,
        params.data,
        undefined,
        undefined,
        (meta) => provider.create(resource, { ...params, meta: { ...params.meta, ...meta } }),
        () => ({
          data: { ...params.data, id: `offline-${Date.now()}`, offline: true } as any,
          meta: { message: SAVED_ON_DEVICE },
        }),
      );
    },

    update(resource, params: UpdateParams) {
      if (!captures(resource, params.data)) return provider.update(resource, params);
      return write(
        'update',
        resource,
        params.data,
        params.id,
        params.previousData,
        (meta) => provider.update(resource, { ...params, meta: { ...params.meta, ...meta } }),
        () => ({
          data: { ...params.previousData, ...params.data, id: params.id } as any,
          meta: { message: SAVED_ON_DEVICE },
        }),
      );
    },

    async getOne(resource, params) {
      try {
        return await provider.getOne(resource, params);
      } catch (error) {
        const kept = await keptOn(error, resource);
        const record = kept?.get(String(params.id));
        if (!record) throw error;
        return { data: record as any };
      }
    },

    async getMany(resource, params) {
      try {
        return await provider.getMany(resource, params);
      } catch (error) {
        const kept = await keptOn(error, resource);
        if (!kept) throw error;
        return {
          data: params.ids.map((id) => kept.get(String(id))).filter((r): r is KeptRecord => Boolean(r)) as any[],
        };
      }
    },

    async getList(resource, params) {
      try {
        return await provider.getList(resource, params);
      } catch (error) {
        const kept = await keptOn(error, resource);
        if (!kept) throw error;
        return keptPage(kept, params) as any;
      }
    },
  };
}

/** With no answer from the server (and a person signed in), the records of `resource` the device keeps; else null. */
async function keptOn(error: unknown, resource: string): Promise<Map<string, KeptRecord> | null> {
  const userId = offline.signedInUserId;
  if (!noAnswer(error) || userId === null) return null;
  const kept = await offline.sites.read(userId);
  return kept ? keptRecordsOf(kept.sites, resource) : null;
}
