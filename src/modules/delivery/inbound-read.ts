import type { XmlElement } from '../../platform/xml/index.ts';
import { readUblElement, ublDocumentType, type UblDocument } from '../invoices/index.ts';
import { MLS_NS, readMlsElement, type MessageLevelStatus } from '../mls/index.ts';
import { payloadFactsOf, type PayloadFacts } from './peppol/sbdh.ts';

/** A reading that may fail: what it read, or why not (the caller turns that into its own refusal). */
export type Attempt<T> = { read: T } | { error: Error };

export function attempt<T>(read: () => T): Attempt<T> {
  try {
    return { read: read() };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * What the receiving side reads of a document, read from the envelope's own parse (the delivered
 * text is the same XML): of a UBL Invoice or CreditNote its routing facts and the invoice model, of
 * an MLS the status. Anything else (a TDD, a report) is null: the paths that take it read its text.
 */
export type ReadWithEnvelope =
  | { kind: 'ubl'; facts: PayloadFacts; ubl: Attempt<UblDocument> }
  | { kind: 'mls'; mls: Attempt<MessageLevelStatus> }
  | null;

export function readWithEnvelope(payload: XmlElement): ReadWithEnvelope {
  if (ublDocumentType(payload) !== null) return { kind: 'ubl', facts: payloadFactsOf(payload), ubl: attempt(() => readUblElement(payload)) };
  if (payload.name === 'ApplicationResponse' && payload.namespaceUri === MLS_NS.ubl) return { kind: 'mls', mls: attempt(() => readMlsElement(payload)) };
  return null;
}
