import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outgoing requests of webhooks (docs/security.md "Outgoing webhooks"): only http and https, and never to the
 * machine itself or a private network (the server would otherwise reach what only it can reach: SSRF) unless the
 * network is let through by WEBHOOK_ALLOW_NETWORKS. The address is checked where the connection is made (the
 * name's lookup), so a name that resolves elsewhere later is checked again.
 */
const PRIVATE_NETWORKS: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export class OutboundRefused extends Error {}

/** Addresses whose answer `permits` keeps (the rules never change while the process runs). */
const KEPT_ANSWERS = 1_000;

export class OutboundAddresses {
  private readonly refused = new net.BlockList();
  private readonly allowed = new net.BlockList();
  private readonly answers = new Map<string, boolean>();

  constructor(allowNetworks: readonly string[]) {
    for (const [address, prefix, family] of PRIVATE_NETWORKS) this.refused.addSubnet(address, prefix, family);
    for (const network of allowNetworks) {
      const [address, prefix] = network.split('/');
      this.allowed.addSubnet(address!, Number(prefix), net.isIPv6(address!) ? 'ipv6' : 'ipv4');
    }
  }

  /**
   * Whether an IP address may be called. An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is read as IPv4. The
   * answers are kept (a BlockList check makes an address object: a tenth of a millisecond for each message sent).
   */
  permits(address: string): boolean {
    let permitted = this.answers.get(address);
    if (permitted === undefined) {
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
      const ip = mapped ?? address;
      const family = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
      permitted = this.allowed.check(ip, family) || !this.refused.check(ip, family);
      if (this.answers.size >= KEPT_ANSWERS) this.answers.clear();
      this.answers.set(address, permitted);
    }
    return permitted;
  }

  /** The URL's problem for a person, or null: http(s), no credentials, and not an address refused. */
  problem(value: string): string | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'Use a full web address such as https://example.org/hooks.';
    }
    if (!['http:', 'https:'].includes(url.protocol)) return 'Use an http or https address.';
    if (url.username || url.password) return 'Leave the user name and password out of the address.';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) && !this.permits(host)))
      return 'That address is on this machine or a private network, which webhooks may not call.';
    return null;
  }

  /** dns.lookup that refuses names resolving to an address not permitted (for http.request's `lookup`). */
  readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const list = Array.isArray(address) ? address : [{ address, family }];
      if (list.some((entry) => !this.permits(entry.address)))
        return callback(new OutboundRefused(`${hostname} is on this machine or a private network.`), '', 4);
      callback(null, address, family);
    });
  };
}

export interface OutboundAnswer {
  status: number;
  ms: number;
}

/**
 * POSTs `body` (JSON) with `headers` to `url`, within `timeoutMs`; answers the status and time taken, the answer's
 * body read and dropped (at most 64 KB). Throws on a refused address, a network failure or the time passing.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  addresses: OutboundAddresses,
  timeoutMs: number,
): Promise<OutboundAnswer> {
  const problem = addresses.problem(url);
  if (problem) return Promise.reject(new OutboundRefused(problem));
  const started = performance.now();
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: addresses.lookup,
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'OrganizingMap-Webhooks/1',
          ...headers,
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65_536) response.destroy();
        });
        const done = () => resolve({ status: response.statusCode ?? 0, ms: Math.round(performance.now() - started) });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${Math.round(timeoutMs / 1000)} s.`)));
    request.on('error', reject);
    request.end(body);
  });
}
