/**
 * Invoice validation findings -> MLS issues, for the receiver's RE. Pure: which findings to answer
 * with, and when, is the flows' decision.
 */
import type { Finding } from '../../../platform/validation/types.ts';
import { MLS_NO_LOCATION, type MlsIssue } from './model.ts';

/**
 * A fatal finding of the XSD stage (parser refusals included) is a syntax violation (SV), any other
 * fatal one a business rule violation (BV), a warning BW. The location is the finding's XPath, or
 * NA for a `line:col` or none; the description `[RULE] message` (a message that already starts with
 * its rule in brackets, as the CEN ones do, is kept as it is). Findings about the engine rather than
 * the document (`VALIDATION-*`: a rule set missing, a timeout) are left out: they are no reason the
 * sender could act on, and say nothing about its document.
 */
export function issuesFromFindings(findings: readonly Finding<string>[]): MlsIssue[] {
  return findings
    .filter((f) => !f.rule.startsWith('VALIDATION-'))
    .map((f) => ({
      location: f.location.startsWith('/') ? f.location : MLS_NO_LOCATION,
      description: f.message.trim().startsWith(`[${f.rule}]`) ? f.message.trim() : `[${f.rule}] ${f.message.trim()}`,
      reason: f.flag === 'warning' ? 'BW' : f.source === 'xsd' ? 'SV' : 'BV',
    }));
}
