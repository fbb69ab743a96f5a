/**
 * The data provider's offline side: creates and updates of the record types people work on in the field (visits,
 * notes, sites) carry an Idempotency-Key, and when there is no connection, or no answer came, they go into the
 * outbox under that key instead of failing (a write whose answer was lost may have arrived: its key keeps the
 * second attempt from writing again). A site read with no connection comes from the sites kept on the device.
 */
import type { CreateParams, UpdateParams } from 'react-admin';
import { isApiError } from '../http/errors';
import type { AppDataProvider } from '../providers/dataProvider';
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
        const userId = offline.signedInUserId;
        if (resource !== 'sites' || !noAnswer(error) || userId === null) throw error;
        const site = await offline.sites.find(userId, params.id);
        if (!site) throw error;
        return { data: site as any };
      }
    },
  };
}
