import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Config } from '../config/config.js';
import { checkKey, type FileStore, type StoredFileReader, type StoredObject } from './file-store.js';

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph) through the official SDK. Uploads stream
 * from the local file with its length; downloads stream the object's body. Every process of an installation sees
 * the same files, so a document uploaded through one downloads through another.
 */
export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: NonNullable<Config['s3']>) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where the API asks for them: several S3-compatible servers reject the SDK's default
      // chunked-checksum uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string) {
    return `${this.prefix}${checkKey(key)}`;
  }

  async putFile(key: string, localPath: string, contentType?: string) {
    await this.copyFile(key, localPath, contentType);
    await rm(localPath, { force: true });
  }

  /** Uploads the local file, keeping it (`npm run files:to-s3`). */
  async copyFile(key: string, localPath: string, contentType?: string) {
    const { size } = await stat(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async read(key: string): Promise<StoredFileReader | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { stream: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404))
        return null;
      throw error;
    }
  }

  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${prefix}`, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        yield {
          key: item.Key.slice(this.prefix.length),
          size: Number(item.Size ?? 0),
          modifiedAt: item.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
