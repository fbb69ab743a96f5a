import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';

/** The stored file of a document or attachment the person may read, with its name and type. */
export async function readDocumentFile(ctx: AppContext, user: AuthUser | null, def: ResourceDefinition, id: number) {
  await ctx.records.show(user, def, id);
  const row = await ctx.db
    .selectFrom('documents')
    .select(['storage_path', 'file_name', 'mime_type'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const stored = await ctx.files.read(row.storage_path);
  if (!stored) throw notFound('The file of this document is missing from the server.');
  return { ...stored, fileName: row.file_name as string, mimeType: row.mime_type as string };
}
