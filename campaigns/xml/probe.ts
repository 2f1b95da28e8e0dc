// One entry point of the xml campaign in a process of its own (forked by ./index.ts with --expose-gc),
// so its RSS is that entry point's alone. It reads a case from a file, collects garbage and says so;
// the parent then resets the peak RSS (/proc/<pid>/clear_refs) and reads VmRSS, says go, and reads
// VmHWM when the answer comes. The entry points that take HTTP (SAPI send) serve from here, and the
// parent is the client.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ParticipantLookupError } from '../../src/modules/delivery/peppol/participants.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../src/modules/delivery/peppol/identifiers.ts';
import { parseSmpParticipantId } from '../../src/modules/delivery/peppol/smp/participant-id.ts';
import { readParticipantFromSmp } from '../../src/modules/delivery/peppol/smp/smp-client.ts';
import { systemResolver } from '../../src/platform/http-client/target-guard.ts';
import { SAPI_SCOPES } from '../../commands/sapi/scopes.ts';
import { issueSapiAccessToken } from '../../src/modules/sapi/auth/tokens.ts';
import { readUbl, UblReadError } from '../../src/modules/invoices/ubl/index.ts';
import { startTestService, type TestService } from '../../test/support/service.ts';

export type Entry = 'sapi-send' | 'peppol-inbound' | 'ubl-reader' | 'smp' | 'fs';

export type ToProbe = { type: 'setup'; entry: Entry; smpUrl?: string } | { type: 'load'; file: string } | { type: 'go' } | { type: 'exit' };
export type FromProbe =
  | { type: 'ready'; sapi?: { root: string; token: string; sender: string; receiver: string } }
  | { type: 'loaded' }
  | { type: 'done'; code: string; ms: number };

const send = (message: FromProbe) => process.send?.(message);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const XML_RULE = /\b(XML-[A-Z0-9-]+|UBL-[A-Z-]+|SBDH-[A-Z0-9-]+)\b/;

let entry: Entry;
let svc: TestService | undefined;
let smpUrl = '';
let bytes: Buffer = Buffer.alloc(0);

/** What the entry point answered: its refusal code, or "accepted" (or the rule of what it reported). */
async function run(): Promise<string> {
  switch (entry) {
    case 'ubl-reader':
      try {
        readUbl(new Uint8Array(bytes));
        return 'accepted';
      } catch (error) {
        return error instanceof UblReadError ? error.rule : `threw ${(error as Error).name}`;
      }
    case 'peppol-inbound': {
      const [sender, receiver] = svc!.demo.companies.map((c) => c.sapi.participant_id);
      try {
        await svc!.sandbox.peppol.send({
          message_id: randomUUID(), sender_participant_id: sender!, receiver_participant_id: receiver!,
          document_type_id: documentTypeFor('Invoice'), process_id: BILLING_PROCESS_ID, envelope: bytes.toString('utf8'),
        });
        return 'accepted';
      } catch (error) {
        const message = (error as Error).message;
        return `${(error as Error).name}: ${XML_RULE.exec(message)?.[1] ?? message.slice(0, 60)}`;
      }
    }
    case 'smp':
      try {
        // the hostile SMP is on loopback; certificates are beside the point of an XML campaign
        await readParticipantFromSmp(smpUrl, parseSmpParticipantId('0245:2020123456'), {
          guard: { allowLoopback: true, resolve: systemResolver }, timeoutMs: 5_000, checkCertificate: async () => ({ ok: true }),
        });
        return 'accepted';
      } catch (error) {
        if (!(error instanceof ParticipantLookupError)) return `threw ${(error as Error).name}`;
        // "the SMP's ServiceGroup of participant 0245:… contains a DOCTYPE …": the code, then what follows the id
        return `${error.code}: ${error.message.replace(/^.*?participant \S+ /, '').slice(0, 48)}`;
      }
    case 'fs': {
      const fs = svc!.sandbox.fs;
      // corner 5 takes the TDD as the sandbox network hands it over; its verdict is the MLS it answers
      const verdict = await fs.take(randomUUID(), bytes.toString('utf8'));
      return verdict.response_code === 'AP' ? 'accepted' : `rejected: ${/^\[([^\]]+)\]/.exec(verdict.issues[0]?.description ?? '')?.[1] ?? '?'}`;
    }
    case 'sapi-send':
      throw new Error('the parent sends SAPI requests over HTTP');
  }
}

process.on('message', (message: ToProbe) => {
  void (async () => {
    if (message.type === 'setup') {
      entry = message.entry;
      smpUrl = message.smpUrl ?? '';
      if (entry === 'sapi-send' || entry === 'peppol-inbound' || entry === 'fs') {
        svc = await startTestService({ delivery: { fsSandboxDelayMs: 0 } });
      }
      if (entry === 'sapi-send') {
        const [a, b] = svc!.demo.companies;
        const token = await issueSapiAccessToken(await svc!.services.identity.ring(), {
          client_id: a!.sapi.client_id, organisation_id: svc!.demo.organisation_id, company_id: a!.id, participant_id: a!.sapi.participant_id,
          scopes: [...SAPI_SCOPES], plan: svc!.demo.plan, family_id: randomUUID(),
        }, svc!.services.clock.now());
        send({ type: 'ready', sapi: { root: svc!.root, token, sender: a!.sapi.participant_id, receiver: b!.sapi.participant_id } });
      } else {
        send({ type: 'ready' });
      }
    } else if (message.type === 'load') {
      bytes = readFileSync(message.file);
      gc();
      send({ type: 'loaded' });
    } else if (message.type === 'go') {
      const started = performance.now();
      const code = await run();
      send({ type: 'done', code, ms: performance.now() - started });
    } else {
      await svc?.close();
      process.exit(0);
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
