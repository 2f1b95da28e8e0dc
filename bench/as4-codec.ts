// The AS4 codec's steps, one at a time, for `npm run bench -- as4`. The codec's entry points are
// timed whole; their sub-steps are timed by calling the same functions they call (the codec has
// no timing hooks), so a sub-step's figure is what that function costs, and "the rest" is what the
// whole costs beyond them (writing the envelope, MIME, reading certificates and header fields).
import { type KeyObject, type X509Certificate } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildReceipt, buildUserMessage, readUserMessage, verifyReceipt, type UserMessageInput } from '../src/modules/delivery/peppol/as4/index.ts';
import { encryptContent, newContentKey, wrapKey } from '../src/modules/delivery/peppol/as4/attachment-crypto.ts';
import { commonName } from '../src/modules/delivery/peppol/as4/certificates.ts';
import { verifySignature } from '../src/modules/delivery/peppol/as4/dsig.ts';
import { writeEncryption } from '../src/modules/delivery/peppol/as4/encryption-write.ts';
import { newEnvelope, newId, writeToken } from '../src/modules/delivery/peppol/as4/envelope-write.ts';
import { writeUserMessage } from '../src/modules/delivery/peppol/as4/messaging.ts';
import { cidNames, cidOf, newContentId, readMultipart } from '../src/modules/delivery/peppol/as4/mime.ts';
import { NS } from '../src/modules/delivery/peppol/as4/names.ts';
import { decryptAttachments, signingCertificate } from '../src/modules/delivery/peppol/as4/security-read.ts';
import { completeSignature, newPlan, writeSignature } from '../src/modules/delivery/peppol/as4/signature-write.ts';
import { withEnvelope } from '../src/modules/delivery/peppol/as4/soap-read.ts';
import { onlyChild } from '../src/modules/delivery/peppol/as4/xml-nodes.ts';

export interface Party {
  key: KeyObject;
  cert: X509Certificate;
}

/** Per message: wall-clock and CPU (this whole process: every thread) milliseconds. */
export interface Cost {
  wallMs: number;
  cpuMs: number;
}

export interface PhaseCost extends Cost {
  phase: string;
}

const cpuMsSince = (before: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

/** Runs `step` a tenth of `runs` to warm up (V8 optimises), then `runs` times; the cost of one. */
export async function measure(runs: number, step: () => unknown): Promise<Cost> {
  for (let i = 0; i < Math.max(2, Math.ceil(runs / 10)); i++) await step();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await step();
  return { wallMs: (performance.now() - started) / runs, cpuMs: cpuMsSince(cpu) / runs };
}

/** The envelope buildUserMessage writes, up to the point where it is signed (user-message-build.ts). */
function writtenEnvelope(input: UserMessageInput, compressed: Buffer, from: Party, to: Party) {
  const uri = cidOf(newContentId('payload'));
  const envelope = newEnvelope();
  const tokenId = newId('X509');
  writeToken(envelope.security, from.cert, tokenId);
  writeEncryption(envelope.security, to.cert, { uri, mimeType: 'application/octet-stream', wrappedKey: wrapKey(to.cert, newContentKey()) }, 'token');
  const plan = newPlan([envelope.ids.messaging, envelope.ids.body], [{ uri, content: compressed }], tokenId);
  const signatureId = newId('SIG');
  writeSignature(envelope.security, plan, signatureId);
  writeUserMessage(envelope.messaging, input, { from: commonName(from.cert), to: commonName(to.cert) }, uri);
  return { xml: envelope.end(), plan, signatureId };
}

const sum = (costs: Cost[]): Cost => costs.reduce((a, c) => ({ wallMs: a.wallMs + c.wallMs, cpuMs: a.cpuMs + c.cpuMs }), { wallMs: 0, cpuMs: 0 });
const rest = (whole: Cost, parts: Cost[]): Cost => {
  const s = sum(parts);
  return { wallMs: whole.wallMs - s.wallMs, cpuMs: whole.cpuMs - s.cpuMs };
};

/**
 * Every step of one message from `from` to `to` and its receipt, `runs` times each. The receiver's
 * trust in the sender's certificate is not asked here (the PKI's verdict, cached per certificate,
 * is in the end-to-end figure): `trustSender` answers "trusted".
 */
export async function codecPhases(input: UserMessageInput, sbdh: Buffer, from: Party, to: Party, runs: number): Promise<{ phases: PhaseCost[]; bothSides: Cost }> {
  const sending = { signingKey: from.key, signingCert: from.cert, receiverCert: to.cert };
  const build = await measure(runs, () => buildUserMessage({ ...input, sbdh }, sending));
  const compress = await measure(runs, () => gzipSync(sbdh));
  const compressed = gzipSync(sbdh);
  const written = writtenEnvelope(input, compressed, from, to);
  const sign = await measure(runs, () => completeSignature(written.xml, written.plan, from.key, written.signatureId));
  const encrypt = await measure(runs, () => {
    const key = newContentKey();
    wrapKey(to.cert, key);
    return encryptContent(key, compressed);
  });

  const sent = buildUserMessage({ ...input, sbdh }, sending);
  const receiving = { ourKey: to.key, ourCert: to.cert, trustSender: () => null };
  const read = await measure(runs, async () => {
    const result = await readUserMessage(sent.contentType, sent.body, receiving);
    if (!result.ok) throw new Error(`the bench's own message is refused: ${result.error.message}`);
  });
  const mime = await readMultipart(sent.contentType, sent.body);
  const unpack = await measure(runs, () => readMultipart(sent.contentType, sent.body));
  const parse = await measure(runs, () => withEnvelope(mime.root.body, () => null));
  const { decrypt, verify, plain } = await withEnvelope(mime.root.body, async ({ doc, security }) => {
    if (!security) throw new Error('no security header');
    const signature = onlyChild(security, NS.ds, 'Signature');
    const decrypted = decryptAttachments(doc, security, mime.attachments, to.key, to.cert);
    const publicKey = signingCertificate(doc, signature).publicKey;
    const attachment = (uri: string) => {
      const part = mime.attachments.find((a) => cidNames(uri, a.contentId));
      return part ? (decrypted.get(part) ?? null) : null;
    };
    return {
      decrypt: await measure(runs, () => decryptAttachments(doc, security, mime.attachments, to.key, to.cert)),
      verify: await measure(runs, () => verifySignature(doc, signature, { publicKey, attachment })),
      plain: [...decrypted.values()][0] ?? Buffer.alloc(0),
    };
  });
  const decompress = await measure(runs, () => gunzipSync(plain));
  if (!gunzipSync(plain).equals(sbdh)) throw new Error('the payload read is not the one sent');

  const received = await readUserMessage(sent.contentType, sent.body, receiving);
  if (!received.ok) throw new Error(received.error.message);
  const receiptInput = { messageId: `${input.messageId}-receipt`, timestamp: new Date(), refToMessageId: input.messageId, references: received.message.references };
  const receiptBuild = await measure(runs, () => buildReceipt(receiptInput, { signingKey: to.key, signingCert: to.cert }));
  const receipt = buildReceipt(receiptInput, { signingKey: to.key, signingCert: to.cert });
  const expected = { messageId: input.messageId, references: sent.references, receiverCert: to.cert };
  const receiptVerify = await measure(runs, async () => {
    const verdict = await verifyReceipt(receipt.contentType, receipt.body, expected);
    if (!verdict.ok) throw new Error(`the bench's own receipt is refused: ${verdict.reason}`);
  });

  const phases: PhaseCost[] = [
    { phase: 'send: build (total)', ...build },
    { phase: '  compress (gzip)', ...compress },
    { phase: '  sign (C14N, SHA-256, RSA)', ...sign },
    { phase: '  encrypt (AES-GCM, RSA-OAEP key)', ...encrypt },
    { phase: '  the rest (envelope, MIME)', ...rest(build, [compress, sign, encrypt]) },
    { phase: 'receive: read (total)', ...read },
    { phase: '  MIME', ...unpack },
    { phase: '  parse (hardened)', ...parse },
    { phase: '  decrypt (RSA-OAEP key, AES-GCM)', ...decrypt },
    { phase: '  verify (C14N, SHA-256, RSA)', ...verify },
    { phase: '  decompress (gunzip)', ...decompress },
    { phase: '  the rest (certificate, header)', ...rest(read, [unpack, parse, decrypt, verify, decompress]) },
    { phase: 'receipt: build (receiver)', ...receiptBuild },
    { phase: 'receipt: verify (sender)', ...receiptVerify },
  ];
  return { phases, bothSides: sum([build, read, receiptBuild, receiptVerify]) };
}
