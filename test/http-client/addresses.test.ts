import { expect } from 'chai';
import { type AddressClass, classifyAddress, inspectAddress } from '../../src/platform/http-client/addresses.ts';

const cases: [string, AddressClass, string][] = [
  // public
  ['93.184.215.14', 'public', 'an ordinary public IPv4'],
  ['8.8.8.8', 'public', 'a public resolver'],
  ['2606:4700:4700::1111', 'public', 'a public IPv6'],
  ['2a00:1450:4001:82b::200e', 'public', 'another public IPv6'],
  // loopback
  ['127.0.0.1', 'loopback', '127/8'],
  ['127.255.255.254', 'loopback', 'the end of 127/8'],
  ['::1', 'loopback', 'IPv6 loopback'],
  // private
  ['10.0.0.1', 'private', '10/8'],
  ['172.16.0.1', 'private', '172.16/12 start'],
  ['172.31.255.255', 'private', '172.16/12 end'],
  ['192.168.1.1', 'private', '192.168/16'],
  ['fc00::1', 'private', 'fc00::/7'],
  ['fd12:3456:789a::1', 'private', 'fd00::/8 in fc00::/7'],
  ['fec0::1', 'private', 'deprecated site-local'],
  // link-local
  ['169.254.169.254', 'link_local', 'the cloud metadata address'],
  ['169.254.0.1', 'link_local', '169.254/16'],
  ['fe80::1', 'link_local', 'fe80::/10'],
  ['fe80::1%eth0', 'link_local', 'fe80::/10 with a zone'],
  ['febf::1', 'link_local', 'the end of fe80::/10'],
  // other non-public
  ['0.0.0.0', 'other_non_public', 'unspecified'],
  ['0.1.2.3', 'other_non_public', '0/8'],
  ['::', 'other_non_public', 'IPv6 unspecified'],
  ['255.255.255.255', 'other_non_public', 'broadcast'],
  ['224.0.0.1', 'other_non_public', 'multicast'],
  ['239.255.255.250', 'other_non_public', 'multicast (SSDP)'],
  ['ff02::1', 'other_non_public', 'IPv6 multicast'],
  ['100.64.0.1', 'other_non_public', 'CGNAT start'],
  ['100.127.255.254', 'other_non_public', 'CGNAT end'],
  ['192.0.0.8', 'other_non_public', 'IETF protocol assignments'],
  ['192.0.2.1', 'other_non_public', 'TEST-NET-1'],
  ['198.51.100.7', 'other_non_public', 'TEST-NET-2'],
  ['203.0.113.9', 'other_non_public', 'TEST-NET-3'],
  ['198.18.0.1', 'other_non_public', 'benchmarking 198.18/15'],
  ['198.19.255.1', 'other_non_public', 'benchmarking 198.18/15 end'],
  ['240.0.0.1', 'other_non_public', 'reserved 240/4'],
  ['2001:db8::1', 'other_non_public', 'IPv6 documentation'],
  ['3fff::1', 'other_non_public', 'IPv6 documentation (RFC 9637)'],
  ['2001:2::1', 'other_non_public', 'IPv6 benchmarking'],
  ['100::1', 'other_non_public', 'IPv6 discard'],
  ['::7f00:1', 'other_non_public', 'deprecated IPv4-compatible (outside 2000::/3)'],
  ['4000::1', 'other_non_public', 'unallocated IPv6'],
  ['not-an-ip', 'other_non_public', 'not an address'],
  ['0177.0.0.1', 'other_non_public', 'an octal form is not canonical text'],
  // IPv4-mapped: the embedded IPv4 decides
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'loopback', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.1.2.3', 'private', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'link_local', 'IPv4-mapped metadata'],
  ['::ffff:100.64.0.1', 'other_non_public', 'IPv4-mapped CGNAT'],
  ['::ffff:8.8.8.8', 'public', 'IPv4-mapped public'],
  ['::ffff:0:7f00:1', 'loopback', 'IPv4-translated (RFC 6145) loopback'],
  // NAT64
  ['64:ff9b::7f00:1', 'loopback', 'NAT64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'link_local', 'NAT64 metadata'],
  ['64:ff9b::192.168.0.1', 'private', 'NAT64 private'],
  ['64:ff9b::808:808', 'public', 'NAT64 public'],
  ['64:ff9b:1::7f00:1', 'other_non_public', 'local-use NAT64 is refused whole'],
  ['64:ff9b:1::808:808', 'other_non_public', 'local-use NAT64 even with a public IPv4'],
  // 6to4 and Teredo
  ['2002:7f00:1::1', 'loopback', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', 'link_local', '6to4 of the metadata address'],
  ['2002:c0a8:101::1', 'private', '6to4 of 192.168.1.1'],
  ['2002:808:808::1', 'public', '6to4 of a public address'],
  ['2001:0:808:808::80ff:fffe', 'loopback', 'Teredo whose client is 127.0.0.1 (inverted)'],
  ['2001:0:a00:1::f7f7:f7f7', 'private', 'Teredo whose server is 10.0.0.1'],
  ['2001:0:808:808::f7f7:f7f7', 'public', 'Teredo with public server and client 8.8.8.8'],
];

describe('webhook target addresses', () => {
  for (const [ip, expected, why] of cases) {
    it(`${ip} is ${expected} (${why})`, () => {
      expect(classifyAddress(ip)).to.equal(expected);
    });
  }

  it('names the embedded IPv4 and its form when it unwrapped one', () => {
    expect(inspectAddress('64:ff9b::a9fe:a9fe')).to.deep.equal({
      class: 'link_local',
      range: 'linkLocal',
      embedded: { form: 'nat64', ipv4: '169.254.169.254' },
    });
    expect(inspectAddress('::ffff:127.0.0.1').embedded).to.deep.equal({ form: 'ipv4_mapped', ipv4: '127.0.0.1' });
  });

  it('names the range of a refused address', () => {
    expect(inspectAddress('100.64.0.1')).to.deep.equal({ class: 'other_non_public', range: 'carrierGradeNat' });
  });
});
