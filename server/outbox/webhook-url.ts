// Which URLs an outgoing webhook may POST to. In production (allowLocal false): https only, and
// never to this machine or a private network (a webhook must not become a way to reach the
// server's own neighbours): a host written as such an address is refused when the URL is saved,
// and a name that resolves to one is refused again right before each POST. A local or test server
// (allowLocal: PUBLIC_URL is not https, or WEBHOOKS_ALLOW_LOCAL=1) may also POST by plain http,
// to localhost and private addresses. What this does not stop: a name that resolves to a public
// address for the check and to a private one for the connection (DNS rebinding within seconds).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type WebhookUrlProblem = 'not_a_url' | 'not_https' | 'private_address';

const PRIVATE_V4: Array<[number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 (carrier-grade NAT)
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata)
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 (benchmarks)
  [0xe0000000, 3], // multicast and reserved
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** A loopback, private, link-local or otherwise not public address. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const kind = isIP(bare);
  if (kind === 4) {
    const n = v4Number(bare);
    return PRIVATE_V4.some(([base, bits]) => n >>> (32 - bits) === base >>> (32 - bits));
  }
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    if (mapped) return isPrivateAddress(mapped[1]);
    return bare === '::' || bare === '::1' || /^f[cd]/.test(bare) || /^fe[89ab]/.test(bare) || /^ff/.test(bare);
  }
  return false;
}

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal');

/** Why this URL cannot be a webhook's, or null. */
export function webhookUrlProblem(raw: string, allowLocal: boolean): WebhookUrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'not_a_url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not_a_url';
  if (url.username || url.password) return 'not_a_url';
  const host = url.hostname.toLowerCase();
  if (!host) return 'not_a_url';
  if (allowLocal) return null;
  if (url.protocol !== 'https:') return 'not_https';
  if (isLocalName(host) || isPrivateAddress(host)) return 'private_address';
  return null;
}

/** Right before a POST (production): the host's addresses now, refused if any is private. */
export async function resolvesToPrivateAddress(raw: string): Promise<boolean> {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.some((a) => isPrivateAddress(a.address));
}
