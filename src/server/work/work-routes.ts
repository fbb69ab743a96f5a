import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import {
  filePart,
  idParams,
  messageAnswer,
  multipart,
  noBody,
  optionalBody,
  recordAnswer,
  storedFile,
} from '../http/contracts.js';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { socketOf } from '../records/routes.js';
import { readDocumentFile } from './document-files.js';
import { assertOwnerReadable } from './owners.js';
import { registerRecordPresence } from './presence.js';
import { discard, keep, receiveUpload } from './uploads.js';
import { attachmentsResource, documentsResource, notesResource, notificationsResource } from './work-resources.js';

/**
 * Stores an uploaded file as a document of `owner` (or of the fields `documentable_type` / `documentable_id`):
 * checks the person may create `def` records and read the owner, checks the file, then writes the row through the
 * record service. The file is removed again if the row cannot be written.
 */
export async function uploadDocument(
  ctx: AppContext,
  request: FastifyRequest,
  def: ResourceDefinition,
  owner?: { type: string; id: number },
) {
  ctx.records.authorize(request.user, def, 'create');
  const { fields, file } = await receiveUpload(request, ctx.config);
  if (!file) throw fieldError('file', 'Choose a file to upload.');
  let stored: string | null = null;
  try {
    let type = owner?.type ?? (fields.documentable_type || null);
    let id = owner?.id ?? (fields.documentable_id ? Number(fields.documentable_id) : null);
    if (!owner) {
      if (def === attachmentsResource && !type && !id) {
        // An upload for an attachment field: it belongs to its record once the record lists its id.
        type = 'attachment';
        id = 0;
      } else {
        if (!type) throw fieldError('documentable_type', 'The record type field is required.');
        if (!id) throw fieldError('documentable_id', 'The record field is required.');
        await assertOwnerReadable(ctx.records, ctx.db, request.user, type, id, 'documentable_type', 'documentable_id');
      }
    }
    stored = await keep(ctx.files, file);
    const { record, message } = await ctx.records.create(
      request.user,
      def,
      {
        documentable_type: type,
        documentable_id: id,
        file_name: file.fileName,
        storage_path: stored,
        mime_type: file.mimeType,
        size: file.size,
        user_id: request.user!.id,
      },
      { socketId: socketOf(request) },
    );
    return { record, message };
  } catch (error) {
    await discard(ctx.files, stored ?? file.tempPath).catch(() => {});
    throw error;
  }
}

const INLINE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain']);

/** A file for a document or attachment: `file`, and the record it belongs to unless the path names it. */
export const documentUpload = multipart({
  file: filePart,
  documentable_type: z.string().optional().describe('The record type it belongs to (site, contact...).'),
  documentable_id: z.string().optional().describe('The id of the record it belongs to.'),
});

const completeBody = z.object({ completed: z.boolean().optional() }).passthrough();

/** Documents and attachments (multipart), downloads, completing notes, dismissing notifications. */
export function registerWorkRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerRecordPresence(ctx);
  for (const def of [documentsResource, attachmentsResource]) {
    app.post(
      `/api/${def.name}`,
      {
        schema: { body: documentUpload, response: { 201: recordAnswer } },
        config: { permission: { resource: def.name, action: 'create' } },
      },
      async (request, reply) => {
        const { record, message } = await uploadDocument(ctx, request, def);
        return reply.status(201).send({ data: record, message });
      },
    );
    app.get(
      `/api/${def.name}/:id/download`,
      {
        schema: {
          params: idParams,
          querystring: z.object({ inline: z.string().optional().describe('1: shown in the browser where it can be.') }),
          response: { 200: storedFile },
        },
        config: { permission: { resource: def.name, action: 'read' } },
      },
      async (request, reply) => {
        const file = await readDocumentFile(ctx, request.user, def, request.params.id);
        const inline = request.query.inline === '1' && INLINE.has(file.mimeType);
        const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
        return reply
          .header('content-type', file.mimeType)
          .header('content-length', file.size)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .header(
            'content-disposition',
            `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .send(file.stream);
      },
    );
  }

  app.post(
    '/api/notes/:id/complete',
    {
      schema: {
        params: idParams,
        body: optionalBody(completeBody),
        response: { 200: recordAnswer, 409: messageAnswer },
      },
      config: { permission: { resource: 'notes', action: 'update' } },
    },
    async (request) => {
      const { completed = true } = request.body;
      const { record } = await ctx.records.update(
        request.user,
        notesResource,
        request.params.id,
        { completed },
        { socketId: socketOf(request) },
      );
      return { data: record, message: completed ? 'Note marked complete.' : 'Note marked not complete.' };
    },
  );

  app.post(
    '/api/notifications/:id/dismiss',
    {
      schema: { params: idParams, body: noBody, response: { 200: recordAnswer } },
      config: { permission: { resource: 'notifications', action: 'update' } },
    },
    async (request) => {
      const { id } = request.params;
      const current = await ctx.records.show(request.user, notificationsResource, id);
      const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : new Date().toISOString());
      const { record } = await ctx.records.update(
        request.user,
        notificationsResource,
        id,
        { dismissed_at: iso(current.dismissed_at), read_at: iso(current.read_at) },
        { socketId: socketOf(request) },
      );
      return { data: record, message: 'Notification dismissed.' };
    },
  );
}
