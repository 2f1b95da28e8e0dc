import type { MlsIssueRecord } from '../../events/mls.ts';

/**
 * What corner 3 answers a received business document (Peppol MLS 1.1, chapter 2.2 and rules
 * OP-MLS-05 to 13), decided from what checking it found. The checks themselves (XSD, the rule
 * release in force, the envelope against the document) run outside; this is the verdict.
 */

/** MLS_TYPE as the sender's envelope asks; null when absent or not one of the two values. */
export type MlsType = 'ALWAYS_SEND' | 'FAILURE_ONLY';

/**
 * One finding of the checks about the document: `syntax` for XSD and well-formedness, `rule` for
 * Schematron and the envelope. Findings about our engine (a rule set missing, a timeout) are none:
 * they are no verdict on the sender's document.
 */
export interface CheckFinding {
  rule: string;
  message: string;
  /** an XPath in the document, or empty when there is none */
  location: string;
  flag: 'fatal' | 'warning';
  kind: 'syntax' | 'rule';
}

export interface MlsVerdict {
  response_code: 'AP' | 'RE';
  description: string | null;
  issues: MlsIssueRecord[];
}

/** An issue's text: the rule id in brackets first, as the specification's example does (once: CEN messages start with it). */
const describe = (f: CheckFinding) => (f.message.trim().startsWith(`[${f.rule}]`) ? f.message.trim() : `[${f.rule}] ${f.message.trim()}`).slice(0, 1000);

/** An XPath locates the issue; a parser's `line:col`, or nothing, is NA (8.5). */
const locate = (f: CheckFinding) => (f.location.startsWith('/') ? f.location : 'NA');

/**
 * RE when any finding is fatal: the document is not given to the end user, and every finding is a
 * reason (fatal syntax SV, fatal rule BV, warnings BW beside them, 2.2.1 iv). Otherwise AP: the
 * document was handed to the end user's account at once (OP-MLS-12), which is a confirmed
 * delivery; warnings alone never reject.
 */
export function mlsVerdict(findings: readonly CheckFinding[]): MlsVerdict {
  const fatal = findings.filter((f) => f.flag === 'fatal');
  if (fatal.length === 0) return { response_code: 'AP', description: null, issues: [] };
  const issues: MlsIssueRecord[] = findings.map((f) => ({
    location: locate(f),
    description: describe(f),
    reason: f.flag === 'warning' ? 'BW' : f.kind === 'syntax' ? 'SV' : 'BV',
  }));
  const description = `Rejected: the document fails ${fatal.length} ${fatal.length === 1 ? 'rule' : 'rules'} of the Peppol specifications (${[...new Set(fatal.map((f) => f.rule))].slice(0, 5).join(', ')}${fatal.length > 5 ? ', …' : ''})`;
  return { response_code: 'RE', description, issues };
}

/** A failure to hand an accepted-looking document on (an unknown recipient): RE with reason FD. */
export function deliveryFailedVerdict(why: string): MlsVerdict {
  return { response_code: 'RE', description: `Rejected: ${why}`.slice(0, 1000), issues: [{ location: 'NA', description: why.slice(0, 1000), reason: 'FD' }] };
}

/**
 * Whether an MLS is sent at all: a rejection always; a positive one only when the sender asked for
 * every status (OP-MLS-09, 11). An absent or invalid MLS_TYPE means the Peppol Network Policy's
 * default, failures only (MLS-3).
 */
export function mlsOwed(responseCode: MlsVerdict['response_code'] | 'AB', type: MlsType | null): boolean {
  return responseCode === 'RE' || type === 'ALWAYS_SEND';
}

/**
 * Where the MLS goes (4.1, OP-MLS-06/07, 22, 23): the envelope's MLS_TO when it is a valid SPIS
 * participant that starts with the sending Access Point's own SPIS id (a redirect to another
 * provider is not allowed), else the sending Access Point's SPIS participant (from its seat id).
 * Null when neither is known: then no MLS can be addressed.
 */
export function mlsReceiver(mlsTo: string | null, senderSpis: string | null): string | null {
  const value = (id: string) => id.slice(id.indexOf(':') + 1).toLowerCase();
  if (mlsTo && senderSpis && mlsTo.toLowerCase().startsWith('0242:') && value(mlsTo).startsWith(value(senderSpis))) return mlsTo;
  if (mlsTo && !senderSpis && mlsTo.toLowerCase().startsWith('0242:')) return mlsTo;
  return senderSpis;
}
