import { BlockList, isIP } from 'node:net';

// Where a forwarded vote may never go unless FORWARD_ALLOW_PRIVATE=true: the host's own and its
// network's addresses, and the cloud metadata services (an admin's URL must not reach them).
const RANGES: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, 169.254.169.254 (metadata) among them
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.168.0.0', 16, 'ipv4'], // private
  ['224.0.0.0', 3, 'ipv4'], // multicast and reserved, 255.255.255.255 among them
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['fc00::', 7, 'ipv6'], // unique local, fd00:ec2::254 (metadata) among them
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const REFUSED = new BlockList();
for (const [network, prefix, family] of RANGES) REFUSED.addSubnet(network, prefix, family);

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as the IPv4 address it is. */
const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

function mappedIPv4(address: string): string | undefined {
  const dotted = MAPPED.exec(address)?.[1];
  if (dotted !== undefined) return dotted;
  const hex = MAPPED_HEX.exec(address);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when a forwarded vote may not be sent to `address` (an IP literal); anything not an address is refused. */
export function isRefusedAddress(address: string): boolean {
  const mapped = mappedIPv4(address);
  if (mapped !== undefined) return isRefusedAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
