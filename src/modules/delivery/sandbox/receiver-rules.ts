import { readSbdh } from '../peppol/sbdh.ts';
import { PeppolRejectedError } from '../peppol/peppol-network.ts';
import { readUbl } from '../../invoices/index.ts';

/**
 * The buyer reference (BT-10, `buyer_reference` on create) that makes the sandbox's receiver reject
 * an invoice or credit note, as a real receiver returns a rejection for a business rule: the way to
 * see `invoice.rejected` (and a failed Peppol leg) without a real partner. Nothing else is refused.
 */
export const SANDBOX_REJECT_BUYER_REFERENCE = 'SANDBOX-REJECT';

export const SANDBOX_REJECTION_RULE = {
  rule: 'SANDBOX-PEPPOL-01',
  message: `The receiver rejected the document: its buyer reference is ${SANDBOX_REJECT_BUYER_REFERENCE}, which asks the sandbox for a rejection.`,
};

/** The receiver's rejection of a message, or null when it takes it. */
export function sandboxReceiverRejection(envelope: string): PeppolRejectedError | null {
  if (!envelope.includes(SANDBOX_REJECT_BUYER_REFERENCE)) return null; // nearly every message: no parse
  let buyerReference: string | null;
  try {
    buyerReference = readUbl(readSbdh(envelope).document).content.buyer_reference;
  } catch {
    return null; // the receiving side refuses what it cannot read by itself
  }
  if (buyerReference !== SANDBOX_REJECT_BUYER_REFERENCE) return null;
  return new PeppolRejectedError(`the receiver rejected the document (${SANDBOX_REJECTION_RULE.rule})`, [SANDBOX_REJECTION_RULE]);
}
