import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { InputLimitError } from '../config/input-limits.js';
import { type FileStore, temporaryFolder } from '../files/file-store.js';
import { HttpError, ValidationError } from '../http/errors.js';

/** What may be uploaded: by extension, the types a browser may declare, and the first bytes the file must start with. */
const TYPES: Record<string, { mime: string; declared: string[]; magic?: number[][]; text?: boolean }> = {
  pdf: { mime: 'application/pdf', declared: ['application/pdf'], magic: [[0x25, 0x50, 0x44, 0x46]] },
  png: { mime: 'image/png', declared: ['image/png'], magic: [[0x89, 0x50, 0x4e, 0x47]] },
  jpg: { mime: 'image/jpeg', declared: ['image/jpeg', 'image/pjpeg'], magic: [[0xff, 0xd8, 0xff]] },
  jpeg: { mime: 'image/jpeg', declared: ['image/jpeg', 'image/pjpeg'], magic: [[0xff, 0xd8, 0xff]] },
  gif: { mime: 'image/gif', declared: ['image/gif'], magic: [[0x47, 0x49, 0x46, 0x38]] },
  webp: { mime: 'image/webp', declared: ['image/webp'], magic: [[0x52, 0x49, 0x46, 0x46]] },
  txt: { mime: 'text/plain', declared: ['text/plain'], text: true },
  csv: {
    mime: 'text/csv',
    declared: ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'],
    text: true,
  },
  rtf: { mime: 'application/rtf', declared: ['application/rtf', 'text/rtf'], magic: [[0x7b, 0x5c, 0x72, 0x74, 0x66]] },
  doc: { mime: 'application/msword', declared: ['application/msword'], magic: [[0xd0, 0xcf, 0x11, 0xe0]] },
  xls: { mime: 'application/vnd.ms-excel', declared: ['application/vnd.ms-excel'], magic: [[0xd0, 0xcf, 0x11, 0xe0]] },
  ppt: {
    mime: 'application/vnd.ms-powerpoint',
    declared: ['application/vnd.ms-powerpoint'],
    magic: [[0xd0, 0xcf, 0x11, 0xe0]],
  },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    declared: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    magic: [[0x50, 0x4b, 0x03, 0x04]],
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    declared: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    magic: [[0x50, 0x4b, 0x03, 0x04]],
  },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    declared: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    magic: [[0x50, 0x4b, 0x03, 0x04]],
  },
  odt: {
    mime: 'application/vnd.oasis.opendocument.text',
    declared: ['application/vnd.oasis.opendocument.text'],
    magic: [[0x50, 0x4b, 0x03, 0x04]],
  },
  ods: {
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    declared: ['application/vnd.oasis.opendocument.spreadsheet'],
    magic: [[0x50, 0x4b, 0x03, 0x04]],
  },
};
export const ALLOWED_EXTENSIONS = Object.keys(TYPES);
/** Browsers and tools that do not know a type send this; the extension and the first bytes decide then. */
const GENERIC = new Set(['application/octet-stream', 'binary/octet-stream', '']);

export interface ReceivedFile {
  /** Where the checked file waits (DATA_DIR/files/tmp) until `keep` moves it into place. */
  tempPath: string;
  fileName: string;
  mimeType: string;
  size: number;
  extension: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

function cleanName(name: string) {
  const base = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '')
    .trim();
  return base.slice(-200) || 'file';
}

function startsWith(head: Buffer, magic: number[]) {
  return magic.every((byte, i) => head[i] === byte);
}

async function firstBytes(file: string, count: number) {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a multipart upload: its text fields and one file (field `file`). The file's name, declared type and
 * size are checked while it arrives, its first bytes once it has: nothing that fails reaches the files folder
 * (it is written to a temporary name and removed). 422 names the field.
 */
export async function receiveUpload(
  request: FastifyRequest,
  config: Config,
  options: { maxBytes?: number } = {},
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data with a "file" field.');
  const maxBytes = Math.min(options.maxBytes ?? config.limits.uploadBytes, config.limits.uploadBytes);
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  const tmpDir = temporaryFolder(config);
  await mkdir(tmpDir, { recursive: true });
  // A document is kept as it is, never parsed: of the input limits, its size is the one that applies.
  const tooLarge = (fileName: string) =>
    new InputLimitError('uploadBytes', { ...config.limits, uploadBytes: maxBytes }, { subject: `"${fileName}"` })
      .message;
  const fail = async (message: string, status = 422): Promise<never> => {
    if (file) await rm(file.tempPath, { force: true });
    if (status === 422) throw new ValidationError({ file: [message] });
    throw new HttpError(status, message);
  };
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
    if (part.type === 'field') {
      fields[part.fieldname.replace(/\[\]$/, '')] = String(part.value ?? '');
      continue;
    }
    if (part.fieldname !== 'file' || file) {
      part.file.resume();
      continue;
    }
    const fileName = cleanName(part.filename ?? 'file');
    const extension = path.extname(fileName).slice(1).toLowerCase();
    const type = TYPES[extension];
    const declared = (part.mimetype ?? '').toLowerCase().split(';')[0].trim();
    if (!type || !(type.declared.includes(declared) || GENERIC.has(declared))) {
      part.file.resume();
      await fail(
        `The file must be one of: ${ALLOWED_EXTENSIONS.join(', ')} (this one is ${extension ? `.${extension}` : 'without an extension'}${declared ? `, ${declared}` : ''}).`,
      );
    }
    const tempPath = path.join(tmpDir, `${randomUUID()}.part`);
    file = { tempPath, fileName, mimeType: type.mime, size: 0, extension };
    try {
      await pipeline(part.file, createWriteStream(tempPath));
    } catch (error: any) {
      if (error?.code === 'FST_REQ_FILE_TOO_LARGE' || error?.statusCode === 413) await fail(tooLarge(fileName));
      await rm(tempPath, { force: true });
      throw error;
    }
    if (part.file.truncated) await fail(tooLarge(fileName));
    file.size = part.file.bytesRead;
    if (file.size === 0) await fail('The file is empty.');
    const head = await firstBytes(tempPath, 8_192);
    const ok = type.magic ? type.magic.some((magic) => startsWith(head, magic)) : !head.includes(0);
    if (!ok) await fail(`The file's content is not a .${extension} file.`);
  }
  return { fields, file };
}

/** Moves a checked upload into the file store as `{folder}/{yyyy}/{mm}/{uuid}.{ext}`; returns that key. */
export async function keep(files: FileStore, file: ReceivedFile, folder = 'documents'): Promise<string> {
  const now = new Date();
  const key = [
    folder,
    String(now.getUTCFullYear()),
    String(now.getUTCMonth() + 1).padStart(2, '0'),
    `${randomUUID()}.${file.extension}`,
  ].join('/');
  await files.putFile(key, file.tempPath, file.mimeType);
  return key;
}

/** Removes a kept file (by its key) or an upload still waiting in the temporary folder (by its path). */
export async function discard(files: FileStore, keyOrTemp: string) {
  if (path.isAbsolute(keyOrTemp)) await rm(keyOrTemp, { force: true });
  else await files.remove(keyOrTemp);
}
