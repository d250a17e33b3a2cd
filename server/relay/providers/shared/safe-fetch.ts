import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';

/*
 * Remote image URLs come from API clients, so fetching them must not reach the
 * gateway's own network (SSRF): loopback, private, link-local and similar ranges
 * are refused — checked on the address actually connected to, so a DNS name that
 * resolves (or re-resolves) to an internal address is refused too.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

let allowPrivate = false;
/** Tests (and nothing else) fetch images from loopback servers. */
export const allowPrivateImageHosts = (allow: boolean) => {
  allowPrivate = allow;
};

export function isBlockedAddress(address: string): boolean {
  if (allowPrivate) return false;
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4mapped) return blocked.check(v4mapped, 'ipv4');
  const family = isIP(address);
  return family === 4 ? blocked.check(address, 'ipv4') : family === 6 ? blocked.check(address, 'ipv6') : false;
}

/** An undici dispatcher whose every connection is to a public address. */
export const publicOnlyAgent = new Agent({
  connect: {
    lookup(hostname, options, callback) {
      lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 4);
        const list = addresses as { address: string; family: number }[];
        const ok = list.find((a) => !isBlockedAddress(a.address));
        if (!ok) return callback(new Error(`refusing to fetch from an internal address (${hostname})`), '', 4);
        if ((options as { all?: boolean }).all) return (callback as (e: null, a: typeof list) => void)(null, [ok]);
        callback(null, ok.address, ok.family);
      });
    },
  },
});
