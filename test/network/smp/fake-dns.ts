/**
 * A fake DNS server for BDXL tests: UDP on 127.0.0.1, a random port, answering NAPTR queries for
 * the names registered in `records` (dns-packet encodes the wire format). Other names are NXDOMAIN.
 * `mode` simulates a failing server: SERVFAIL, or silence (a timeout).
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { NaptrData } from 'dns-packet';

export interface FakeDns {
  /** `127.0.0.1:<port>`, for Resolver.setServers */
  server: string;
  records: Map<string, NaptrData[]>;
  mode: 'answer' | 'servfail' | 'silent';
  /** the names asked for, in order */
  queries: string[];
  close(): Promise<void>;
}

const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;

export async function startFakeDns(): Promise<FakeDns> {
  const socket = createSocket('udp4');
  const fake: FakeDns = {
    server: '',
    records: new Map(),
    mode: 'answer',
    queries: [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (question === undefined) return;
    fake.queries.push(question.name);
    if (fake.mode === 'silent') return;
    const data = fake.records.get(question.name.toLowerCase());
    let rcode = NOERROR;
    if (fake.mode === 'servfail') rcode = SERVFAIL;
    else if (data === undefined) rcode = NXDOMAIN;
    const answers =
      rcode === NOERROR && question.type === 'NAPTR'
        ? (data ?? []).map((d) => ({ type: 'NAPTR' as const, class: 'IN' as const, name: question.name, ttl: 60, data: d }))
        : [];
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      // the low four bits of the flags word are the RCODE
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | rcode,
      questions: [question],
      answers,
    });
    socket.send(response, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  fake.server = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return fake;
}

/** The NAPTR record the SML publishes for an SMP. */
export function smpNaptr(url: string, overrides: Partial<NaptrData> = {}): NaptrData {
  return { order: 100, preference: 10, flags: 'U', services: 'Meta:SMP', regexp: `!^.*$!${url}!`, replacement: '.', ...overrides };
}
