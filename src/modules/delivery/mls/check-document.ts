import type { CheckFinding } from '../../../../commands/mls/answer.ts';
import type { Finding, ValidatorSource } from '../../../platform/validation/index.ts';
import { checkEnvelope, checkSbdhAgainstDocument, type PayloadFacts } from '../peppol/sbdh-check.ts';
import type { SbdhEnvelope } from '../peppol/sbdh-model.ts';

/**
 * Corner 3's checks of a received business document, before it is given to the end user: the UBL
 * XSD, the CEN and Peppol rules of the release in force when it was received, and the envelope
 * against the document (MLS 1.1, 2.2.1). Our own Slovak rule set is not among them: it holds what
 * this service promises of the invoices it builds (its IBAN and identifier checks, the sandbox's
 * participant scheme), not what another Access Point's document must meet; the official Slovak
 * rules come inside the Peppol release (3.0.22 on).
 */
const ENGINE_FAILURES = new Set(['VALIDATION-TIMEOUT', 'VALIDATION-ENGINE-ERROR']);

export async function checkReceivedDocument(validator: ValidatorSource, envelope: SbdhEnvelope, receivedAt: Date, facts?: PayloadFacts): Promise<CheckFinding[]> {
  const report = await (await validator()).validate(envelope.document, { at: receivedAt });
  // our engine failing is no verdict on the document: the message is not taken, and the sender retries
  const broken = report.errors.find((f) => ENGINE_FAILURES.has(f.rule));
  if (broken) throw new Error(`the received document could not be checked now: ${broken.message}`);
  const official = (f: Finding) => f.source !== 'sk' && !f.rule.startsWith('VALIDATION-');
  const findings: CheckFinding[] = [...report.errors, ...report.warnings].filter(official).map((f) => ({
    rule: f.rule, message: f.message, location: f.location, flag: f.flag, kind: f.source === 'xsd' ? 'syntax' : 'rule',
  }));
  // the document's routing facts, read with the envelope (inbound.ts) or else from the document
  for (const mismatch of facts ? checkSbdhAgainstDocument(envelope, facts) : checkEnvelope(envelope)) {
    findings.push({ rule: mismatch.code, message: mismatch.message, location: 'NA', flag: 'fatal', kind: 'rule' });
  }
  return findings;
}
