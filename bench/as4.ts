// `npm run bench -- as4 [--quick]` (issue 38, item 8): the AS4 codec on a 10-line and a 1,000-line
// invoice in its SBDH, and the same messages end to end over loopback HTTP.
//  1. per size, each step of sending (build: compress, sign, encrypt) and of receiving (read: MIME,
//     parse, decrypt, verify, decompress), the receipt built and verified: ms and CPU ms per message
//     (bench/as4-codec.ts);
//  2. one validation of the same UBL by the service's validator: the CPU anchor;
//  3. end to end: a running service with PEPPOL_NETWORK=as4 and its own Access Point certificate
//     receives at POST /as4; each message is built by the codec, POSTed with fetch and its receipt
//     verified, one at a time: send → receipt verified, p50/p95, and CPU per message of this whole
//     process (both Access Points, the receiver's inbound path and, on PGlite, its database);
//     back to back (the reactors of the messages before run meanwhile and count), then each
//     message on an idle service;
//  4. the targets: the AS4 work of both sides costs at most the CPU of one validation, and sending
//     plus receiving a 1,000-line invoice (on an idle service) takes under 1 s.
// BENCH_PROFILE=dir: a V8 CPU profile of each end-to-end run (as4-e2e-<lines>.cpuprofile).
// Certificates come from the test PKI (test/support/peppol-pki.ts), made in the run. DATABASE_URL:
// the service on that Postgres (its server's CPU is then counted apart).
import { createPrivateKey, randomUUID } from 'node:crypto';
import os from 'node:os';
import { boundedFetch } from '../src/modules/delivery/index.ts';
import { buildUserMessage, verifyReceipt, type UserMessageInput } from '../src/modules/delivery/peppol/as4/index.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../src/modules/delivery/peppol/sbdh.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startTestPki, type TestCertificate } from '../test/support/peppol-pki.ts';
import { startTestService, type TestService } from '../test/support/service.ts';
import { generateInvoice } from '../test/validation/support/generate-invoice.ts';
import { codecPhases, measure, type Cost, type Party, type PhaseCost } from './as4-codec.ts';
import { cpuProfile, postgresServerCpuMs } from './phases.ts';
import { percentile, watchCpu } from './stats.ts';

/** The seller of the generated invoices (its cbc:EndpointID): C1. */
const SENDER = '0245:2020123457';

interface Size {
  lines: number;
  /** runs of each codec step */
  runs: number;
  /** messages sent end to end */
  messages: number;
}

interface Row extends PhaseCost {
  size: string;
  /** messages per second, when it is not 1000 / wallMs (end to end: measured) */
  perSecond?: number;
}

const party = (certificate: TestCertificate): Party => ({ key: createPrivateKey(certificate.keyPem), cert: certificate.node });

const sbdhOf = (ubl: string, receiver: string, instanceId: string) =>
  Buffer.from(wrapInSbdh({ sender: SENDER, receiver, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID, instanceId, createdAt: new Date(), countryC1: 'SK', document: ubl }), 'utf8');

const header = (messageId: string, receiver: string): UserMessageInput => ({
  messageId, timestamp: new Date(), conversationId: randomUUID(), processId: BILLING_PROCESS_ID, documentTypeId: INVOICE_DOCUMENT_TYPE_ID, originalSender: SENDER, finalRecipient: receiver,
});

interface EndToEnd {
  /** send → receipt verified, ms, ascending */
  ms: number[];
  cost: Cost;
  perSecond: number;
  /** CPU ms per message of the local Postgres server's processes; null on PGlite (in this process) */
  postgresCpuMs: number | null;
}

/**
 * `count` messages, one after another, each a new SBDH (the inbound path is idempotent by its
 * instance id). `alone`: the service idle before each message (not timed), so a message does not
 * share the CPU with the reactors of the one before; CPU is then counted from send to receipt only.
 */
async function endToEnd(service: TestService, ubl: string, count: number, from: Party, to: Party, alone: boolean): Promise<EndToEnd> {
  const receiver = service.demo.companies[0]?.peppol_id;
  if (!receiver) throw new Error('no demo company');
  const sendOne = async (sbdh: Buffer, messageId: string) => {
    const built = buildUserMessage({ ...header(messageId, receiver), sbdh }, { signingKey: from.key, signingCert: from.cert, receiverCert: to.cert });
    const answer = await fetch(`${service.root}/as4`, { method: 'POST', headers: { 'content-type': built.contentType }, body: new Uint8Array(built.body) });
    const verdict = await verifyReceipt(answer.headers.get('content-type') ?? '', Buffer.from(await answer.arrayBuffer()), { messageId, references: built.references, receiverCert: to.cert });
    if (!verdict.ok) throw new Error(`message ${messageId} not acknowledged (HTTP ${answer.status}): ${verdict.reason}`);
  };
  const envelopes = (n: number) => Array.from({ length: n }, () => {
    const id = randomUUID();
    return { id: `${id}@bench`, sbdh: sbdhOf(ubl, receiver, id) };
  });
  // warm: the sender's certificate checked once by the PKI (then cached), the code paths optimised
  for (const m of envelopes(3)) await sendOne(m.sbdh, m.id);
  const ms: number[] = [];
  let cpuMs = 0;
  let postgresMs: number | null = process.env.DATABASE_URL ? 0 : null;
  for (const m of envelopes(count)) {
    if (alone) await settle();
    const postgresBefore = postgresMs === null ? null : postgresServerCpuMs();
    const cpu = process.cpuUsage();
    const sent = performance.now();
    await sendOne(m.sbdh, m.id);
    ms.push(performance.now() - sent);
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1000;
    const postgresAfter = postgresBefore === null ? null : postgresServerCpuMs();
    if (postgresMs !== null) postgresMs = postgresBefore === null || postgresAfter === null ? null : postgresMs + postgresAfter - postgresBefore;
  }
  const wall = ms.reduce((a, b) => a + b, 0);
  return {
    ms: ms.sort((a, b) => a - b),
    cost: { wallMs: wall / count, cpuMs: cpuMs / count },
    perSecond: count / (wall / 1000),
    postgresCpuMs: postgresMs === null ? null : postgresMs / count,
  };
}

/**
 * Waits until this process is quiet (under 30 % of a core over half a second; the idle service
 * itself uses 10-20 % here): the service's reactors have done with what the last run left them,
 * so it does not count in the next; at most `withinMs`. Returns the seconds waited.
 */
async function settle(withinMs = 10_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(cpu);
    if (used.user + used.system < 150_000) break;
  }
  return (Date.now() - started) / 1000;
}

function printTable(rows: Row[]): void {
  console.log('\n| size | phase | ms/msg | CPU ms/msg | msg/s |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of rows) {
    const perSecond = r.perSecond ?? 1000 / r.wallMs;
    console.log(`| ${r.size} | ${r.phase} | ${r.wallMs.toFixed(2)} | ${r.cpuMs.toFixed(2)} | ${perSecond >= 100 ? perSecond.toFixed(0) : perSecond.toFixed(1)} |`);
  }
}

export async function main(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const sizes: Size[] = [
    { lines: 10, runs: quick ? 40 : 200, messages: quick ? 20 : 100 },
    { lines: 1000, runs: quick ? 5 : 20, messages: quick ? 5 : 20 },
  ];
  const cpuWatch = watchCpu();
  const pki = await startTestPki();
  let service: TestService | undefined;
  try {
    const [ap1, ap2] = [await pki.issue('ap', { cn: 'POP000001' }), await pki.issue('ap', { cn: 'POP000002' })];
    const from = party(ap1);
    const to = party(ap2);
    const rows: Row[] = [];
    const bothSides = new Map<number, Cost>();
    const ubls = new Map(sizes.map((s) => [s.lines, generateInvoice(s.lines)]));

    // 1. the codec alone, before the service runs beside it
    for (const size of sizes) {
      const ubl = ubls.get(size.lines) ?? '';
      const sbdh = sbdhOf(ubl, '0245:2120456789', randomUUID());
      const label = `${size.lines.toLocaleString('en')} lines (SBDH ${(sbdh.length / 1024).toFixed(0)} KiB)`;
      const { phases, bothSides: both } = await codecPhases(header(`${randomUUID()}@bench`, '0245:2120456789'), sbdh, from, to, size.runs);
      rows.push(...phases.map((p) => ({ size: label, ...p })));
      rows.push({ size: label, phase: 'AS4 work, both sides (build + read + receipt build + verify)', ...both });
      bothSides.set(size.lines, both);
    }

    // 2. and 3. the running receiver
    service = await startTestService({
      peppol: loadConfig(pki.env(ap2)).peppol,
      // the test PKI's OCSP responder and CRLs are on loopback
      peppolRevocationFetch: boundedFetch({ timeoutMs: 5_000, maxBytes: 1024 * 1024, allowLoopback: true }),
      validateResponses: false,
    });
    const validator = await service.services.validator();
    const settled: number[] = [await settle()];
    // the anchors before any message arrives: the inbound invoices' reactors would count in them
    const validations = new Map<number, Cost>();
    for (const size of sizes) {
      const ubl = ubls.get(size.lines) ?? '';
      const report = await validator.validate(ubl);
      if (report.errors.length > 0) throw new Error(`the generated ${size.lines}-line invoice does not validate: ${JSON.stringify(report.errors).slice(0, 500)}`);
      const validation = await measure(Math.max(3, Math.ceil(size.runs / 2)), () => validator.validate(ubl));
      validations.set(size.lines, validation);
      rows.push({ size: `${size.lines.toLocaleString('en')} lines`, phase: 'validation of the UBL (service validator, the anchor)', ...validation });
    }
    const alone = new Map<number, EndToEnd>();
    for (const size of sizes) {
      const label = `${size.lines.toLocaleString('en')} lines`;
      for (const idle of [false, true]) {
        settled.push(await settle());
        const messages = idle ? 5 : size.messages;
        const run = () => endToEnd(service as TestService, ubls.get(size.lines) ?? '', messages, from, to, idle);
        const profile = process.env.BENCH_PROFILE ? `${process.env.BENCH_PROFILE}/as4-e2e-${size.lines}${idle ? '-alone' : ''}.cpuprofile` : null;
        const e2e = await (profile ? cpuProfile(profile, run) : run());
        if (idle) alone.set(size.lines, e2e);
        const how = idle ? `each on an idle service, ${messages} msgs` : `back to back, ${messages} msgs`;
        rows.push({ size: label, phase: `end to end, ${how}: build, POST /as4, receipt verified (p50 ${percentile(e2e.ms, 50).toFixed(1)}, p95 ${percentile(e2e.ms, 95).toFixed(1)} ms)`, ...e2e.cost, perSecond: e2e.perSecond });
        if (e2e.postgresCpuMs !== null) rows.push({ size: label, phase: '  plus the Postgres server’s CPU', wallMs: 0, cpuMs: e2e.postgresCpuMs, perSecond: e2e.perSecond });
      }
    }

    console.log(`\nAS4 codec and POST /as4 on loopback (${process.env.DATABASE_URL ? 'Postgres' : 'PGlite'}); CPU is this process's, all threads`);
    printTable(rows);

    console.log('\nTargets (issue 38, item 8):\n');
    for (const size of sizes) {
      const both = bothSides.get(size.lines) as Cost;
      const validation = validations.get(size.lines) as Cost;
      const ratio = both.cpuMs / validation.cpuMs;
      console.log(`${ratio <= 1 ? 'PASS' : 'FAIL'}  ${size.lines.toLocaleString('en')} lines: AS4 work of both sides ${both.cpuMs.toFixed(2)} CPU ms <= one validation ${validation.cpuMs.toFixed(2)} CPU ms (ratio ${ratio.toFixed(2)})`);
    }
    const large = alone.get(1000) as EndToEnd;
    const p50 = percentile(large.ms, 50);
    const worst = large.ms.at(-1) ?? Infinity;
    const codecWall = (bothSides.get(1000) as Cost).wallMs;
    console.log(`${p50 < 1000 ? 'PASS' : 'FAIL'}  1,000 lines: send + receive end to end (on an idle service) p50 ${p50.toFixed(0)} ms < 1,000 ms (ratio ${(p50 / 1000).toFixed(2)}; slowest of ${large.ms.length} ${worst.toFixed(0)} ms; the codec alone ${codecWall.toFixed(0)} ms)`);
    console.log(`\nWaited for the service to be idle before the anchors and each end-to-end run: ${settled.map((n) => `${n.toFixed(0)} s`).join(', ')}.`);
    console.log(`${cpuWatch()}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} on ${os.availableParallelism()} cores`);
  } finally {
    await service?.close();
    await pki.close();
  }
}
