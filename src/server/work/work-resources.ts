import { fieldError } from '../http/errors.js';
import type { ResourceDefinition, WriteContext } from '../records/resource.js';
import { ref } from '../schemas/schema-backed.js';
import { assertOwnerReadable } from './owners.js';

/** `completed: true|false` sent by a form becomes `completed_at` (kept when it was already complete). */
function applyCompleted(values: Record<string, any>, existing?: Record<string, any>) {
  if (!('completed' in values)) return values;
  const { completed, ...rest } = values;
  if (!('completed_at' in rest)) rest.completed_at = completed ? (existing?.completed_at ?? new Date()) : null;
  return rest;
}

const presentCompleted = (records: Record<string, any>[]) => {
  for (const record of records) record.completed = record.completed_at != null;
};

async function checkOwner(values: Record<string, any>, ctx: WriteContext, typeField: string, idField: string) {
  if (!(typeField in values) && !(idField in values)) return;
  const type = typeField in values ? values[typeField] : ctx.existing?.[typeField];
  const id = idField in values ? values[idField] : ctx.existing?.[idField];
  await assertOwnerReadable(ctx.records, ctx.trx, ctx.user, type, id, typeField, idField);
}

/** Tasks (call, meeting, visit) with a due time, an assignee, and the record they are about. */
export const tasksResource: ResourceDefinition = {
  name: 'tasks',
  type: 'task',
  table: 'tasks',
  singular: 'Task',
  fields: {
    title: { kind: 'text', required: true, max: 200 },
    type: { kind: 'enum', required: true, options: ['call', 'meeting', 'visit'] },
    due_at: { kind: 'datetime', label: 'due' },
    completed_at: { kind: 'datetime', label: 'completed at' },
    completed: { kind: 'boolean', storage: 'virtual', sortable: false, filterable: false },
    assignee_id: ref('users', 'assignee'),
    taskable_type: { kind: 'text', max: 60, label: 'record type' },
    taskable_id: { kind: 'integer', min: 1, label: 'record' },
    notes: { kind: 'text', max: 20_000 },
    user_id: { kind: 'integer', min: 1, label: 'created by' },
  },
  readOnly: ['user_id'],
  search: ['title', 'notes'],
  defaultSort: { field: 'due_at', order: 'asc' },
  softDelete: true,
  restorable: false,
  hooks: {
    async beforeWrite(values, ctx) {
      await checkOwner(values, ctx, 'taskable_type', 'taskable_id');
      const prepared = applyCompleted(values, ctx.existing);
      if (ctx.action === 'create') {
        prepared.user_id = ctx.user?.id ?? null;
        if (prepared.assignee_id === undefined) prepared.assignee_id = ctx.user?.id ?? null;
      }
      return prepared;
    },
    present: presentCompleted,
  },
};

/** Notes on records; a note can be marked complete (POST /api/notes/{id}/complete). */
export const notesResource: ResourceDefinition = {
  name: 'notes',
  type: 'note',
  table: 'notes',
  singular: 'Note',
  fields: {
    body: { kind: 'text', required: true, max: 20_000 },
    notable_type: { kind: 'text', max: 60, label: 'record type' },
    notable_id: { kind: 'integer', min: 1, label: 'record' },
    completed_at: { kind: 'datetime', label: 'completed at' },
    completed: { kind: 'boolean', storage: 'virtual', sortable: false, filterable: false },
    user_id: { kind: 'integer', min: 1, label: 'written by' },
  },
  readOnly: ['user_id', 'user_name'],
  search: ['body'],
  defaultSort: { field: 'created_at', order: 'desc' },
  softDelete: true,
  restorable: false,
  hooks: {
    async beforeWrite(values, ctx) {
      await checkOwner(values, ctx, 'notable_type', 'notable_id');
      const prepared = applyCompleted(values, ctx.existing);
      if (ctx.action === 'create') prepared.user_id = ctx.user?.id ?? null;
      return prepared;
    },
    async present(records, db) {
      presentCompleted(records);
      const ids = [...new Set(records.map((r) => r.user_id).filter(Boolean))];
      const users = ids.length
        ? await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', ids).execute()
        : [];
      const names = new Map(users.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim()]));
      for (const record of records) record.user_name = names.get(record.user_id) ?? null;
    },
  },
};

/** A person's notifications: each person reads (and hears about) only their own. */
export const notificationsResource: ResourceDefinition = {
  name: 'notifications',
  type: 'notification',
  table: 'notifications',
  singular: 'Notification',
  fields: {
    user_id: ref('users', 'recipient'),
    title: { kind: 'text', required: true, max: 300 },
    body: { kind: 'text', max: 5_000 },
    // Followed when the person opens the notification: a page of this app or a web address, never javascript: or data:.
    link: {
      kind: 'text',
      max: 2_000,
      pattern: /^(\/(?!\/)|https?:\/\/)/i,
      patternMessage: 'The link must be a path of this app (/sites/1/show) or a web address (https://...).',
    },
    data: { kind: 'json', max: 20_000, sortable: false, filterable: false },
    read_at: { kind: 'datetime', label: 'read at' },
    dismissed_at: { kind: 'datetime', label: 'dismissed at' },
  },
  defaultSort: { field: 'created_at', order: 'desc' },
  search: ['title', 'body'],
  softDelete: false,
  restorable: false,
  ownerColumn: 'user_id',
  hooks: {
    beforeWrite(values, ctx) {
      if (ctx.action === 'create' && !values.user_id) {
        if (!ctx.user) throw fieldError('user_id', 'The recipient field is required.');
        values.user_id = ctx.user.id;
      }
      if (ctx.action === 'update' && 'user_id' in values && values.user_id !== ctx.existing?.user_id) {
        throw fieldError('user_id', 'A notification cannot be given to someone else.');
      }
      if (values.data === null) values.data = {};
      return values;
    },
  },
};

const documentFields: ResourceDefinition['fields'] = {
  documentable_type: { kind: 'text', required: true, max: 60, label: 'record type' },
  documentable_id: { kind: 'integer', required: true, min: 0, label: 'record' },
  file_name: { kind: 'text', required: true, max: 255, label: 'file name' },
  storage_path: { kind: 'text', required: true, max: 500, filterable: false, sortable: false },
  mime_type: { kind: 'text', required: true, max: 200, label: 'type' },
  size: { kind: 'integer', required: true, min: 0 },
  user_id: { kind: 'integer', min: 1, label: 'uploaded by' },
};

const presentDocuments = (records: Record<string, any>[]) => {
  for (const record of records) record.url = `/api/documents/${record.id}/download`;
};

/**
 * Files on records. Created only by the multipart upload (POST /api/documents, /api/attachments,
 * /api/sites/{id}/attachments), never by a JSON body; the file itself is under DATA_DIR/files.
 */
export const documentsResource: ResourceDefinition = {
  name: 'documents',
  type: 'document',
  table: 'documents',
  singular: 'Document',
  fields: documentFields,
  hidden: ['storage_path'],
  readOnly: ['url'],
  search: ['file_name'],
  defaultSort: { field: 'created_at', order: 'desc' },
  softDelete: true,
  restorable: false,
  ownRoutes: ['create', 'update'],
  hooks: { present: presentDocuments },
};

/**
 * Attachments (SPEC: create as multipart with file; no restore): documents uploaded for an attachment field or a
 * record. Without documentable_type/id an upload waits, owned by type `attachment`, for the record that lists its
 * id in an attachment field.
 */
export const attachmentsResource: ResourceDefinition = {
  ...documentsResource,
  name: 'attachments',
  type: 'attachment',
  singular: 'Attachment',
};
