/**
 * The record the person has open, from the address (`/sites/12/show`, `/sites/12`, `/vehicles/3/show`): what "this"
 * means in a question. Pure, so it is unit-tested.
 */
import { typeForResource } from '../resources/names';

interface SchemaLike {
  type: string;
  resource?: string;
}

export function recordFromPath(pathname: string, schemas: readonly SchemaLike[]): { type: string; id: number } | null {
  const match = /^\/([a-z0-9-]+)\/(\d+)(?:\/show)?(?:\/[a-z-]*)?\/?$/.exec(pathname);
  if (!match) return null;
  const [, resource, id] = match;
  const type = schemas.find((schema) => (schema.resource ?? '') === resource)?.type ?? typeForResource(resource);
  if (!type || type.startsWith('assistant')) return null;
  return { type, id: Number(id) };
}
