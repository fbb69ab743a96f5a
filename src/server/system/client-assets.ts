import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What the build writes into assets/: hashed scripts and style sheets, each with a brotli and a gzip copy when it gains. */
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];
/** A file name of the folder itself: no separator, no leading dot. */
const ASSET_NAME = /^[\w-][\w.-]*$/;
/** A name not in the listing reads the folder again at most this often (a rebuild is served without a restart). */
const RESCAN_MS = 1_000;
/**
 * Files up to this size are kept in memory once sent (all of the build's brotli copies come to about 1.3 MB): a read
 * from disk is four calls on libuv's thread pool, more than the rest of the answer.
 */
const KEPT_FILE_BYTES = 256 * 1024;
const KEPT_TOTAL_BYTES = 16 * 1024 * 1024;

interface Variant {
  file: string;
  size: number;
  mtime: Date;
  etag: string;
  bytes?: Buffer;
}
interface Asset {
  type: string;
  lastModified: string;
  plain: Variant;
  encoded: Partial<Record<Encoding, Variant>>;
}

function variantOf(file: string): Variant | undefined {
  try {
    const stat = statSync(file);
    return stat.isFile()
      ? {
          file,
          size: stat.size,
          mtime: stat.mtime,
          etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The built client's hashed assets, listed in memory. Each page load asks for a hundred of them; looking each one up
 * on disk (its spelling checked against the folder's listing, then a `stat` per compressed copy tried) cost the
 * server about 3–4 ms of CPU an asset, more than most API answers (docs/benchmarks.md, "Serving the client").
 */
export class ClientAssets {
  private assets = new Map<string, Asset>();
  private scannedAt = 0;
  private keptBytes = 0;

  constructor(private readonly folder: string) {
    this.scan();
  }

  find(name: string): Asset | undefined {
    if (!ASSET_NAME.test(name)) return undefined;
    const known = this.assets.get(name);
    if (known || Date.now() - this.scannedAt < RESCAN_MS) return known;
    this.scan();
    return this.assets.get(name);
  }

  /** The variant's bytes when it is small enough to keep (read once), else a stream of the file. */
  body(variant: Variant): Buffer | NodeJS.ReadableStream {
    if (variant.bytes) return variant.bytes;
    if (variant.size > KEPT_FILE_BYTES || this.keptBytes + variant.size > KEPT_TOTAL_BYTES)
      return createReadStream(variant.file);
    variant.bytes = readFileSync(variant.file);
    this.keptBytes += variant.bytes.length;
    return variant.bytes;
  }

  private scan() {
    this.scannedAt = Date.now();
    const assets = new Map<string, Asset>();
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch {
      names = [];
    }
    const present = new Set(names);
    for (const name of names) {
      const type = TYPES[path.extname(name)];
      if (!type || !ASSET_NAME.test(name)) continue;
      const plain = variantOf(path.join(this.folder, name));
      if (!plain) continue;
      const encoded: Asset['encoded'] = {};
      for (const { name: encoding, suffix } of ENCODINGS) {
        if (!present.has(name + suffix)) continue;
        const variant = variantOf(path.join(this.folder, name + suffix));
        if (variant) encoded[encoding] = variant;
      }
      assets.set(name, { type, lastModified: plain.mtime.toUTCString(), plain, encoded });
    }
    this.assets = assets;
    this.keptBytes = 0;
  }
}

/** The encoding the request accepts that the asset has, brotli first; `q=0` refuses one. */
function chosenEncoding(request: FastifyRequest, asset: Asset): Encoding | undefined {
  const header = String(request.headers['accept-encoding'] ?? '');
  if (!header) return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...parameters]) => !parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter)))
      .map(([coding]) => coding.trim().toLowerCase()),
  );
  return ENCODINGS.find(({ name }) => asset.encoded[name] && (accepted.has(name) || accepted.has('*')))?.name;
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, assets: ClientAssets, asset: Asset) {
  const encoding = chosenEncoding(request, asset);
  const variant = (encoding && asset.encoded[encoding]) || asset.plain;
  reply
    .header('Content-Type', asset.type)
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .header('Vary', 'Accept-Encoding')
    .header('Last-Modified', asset.lastModified)
    .header('ETag', variant.etag);
  if (encoding) reply.header('Content-Encoding', encoding);
  if (request.headers['if-none-match'] === variant.etag) return reply.status(304).send();
  reply.header('Content-Length', variant.size);
  if (request.method === 'HEAD') return reply.send();
  return reply.send(assets.body(variant));
}

/** GET and HEAD /assets/{name} from the listing; a name it does not hold is a 404 like any unknown path. */
export function registerClientAssets(app: FastifyInstance, root: string) {
  const assets = new ClientAssets(path.join(root, 'assets'));
  app.route<{ Params: { name: string } }>({
    method: ['GET', 'HEAD'],
    url: '/assets/:name',
    // A file, not JSON: left out of the API's description like the client's other files.
    schema: { hide: true },
    config: { permission: 'public', session: false },
    handler(request, reply) {
      const asset = assets.find(request.params.name);
      return asset ? sendAsset(request, reply, assets, asset) : reply.callNotFound();
    },
  });
}
