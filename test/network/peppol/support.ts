// Shared pieces of the SBDH tests: the official examples, canonical forms, and envelope surgery with libxml2.
import fs from 'node:fs';
import path from 'node:path';
import { type XmlDocument, parseTrusted } from '../../../src/platform/xml/index.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { SBDH_NS, wrapInSbdh, type SbdhInput } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { artifact } from '../../validation/support/paths.ts';

export const EXAMPLES = artifact('examples/peppol-bis-3.0.21/rules/examples');
export const TDD_EXAMPLES = artifact('sk-tdd/bundle-2026-04-14/trn-tdd/example');
export const NS = { sh: SBDH_NS };

export function example(file: string, dir = EXAMPLES): string {
  return fs.readFileSync(path.join(dir, file), 'utf8');
}

/** Canonical XML (C14N 1.0, comments kept) of a document's root element: what "the same XML" means here. */
export function canonical(xml: string): string {
  const doc = parseTrusted(xml);
  try {
    return doc.root.canonicalizeToString({ withComments: true });
  } finally {
    doc.dispose();
  }
}

/** The seller and buyer of base-example.xml, as its EndpointIDs state them. */
export const BASE_SELLER = '0088:9482348239847239874';
export const BASE_BUYER = '0002:FR23342';

export function invoiceInput(document: string, overrides: Partial<SbdhInput> = {}): SbdhInput {
  return {
    sender: BASE_SELLER,
    receiver: BASE_BUYER,
    documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
    processId: BILLING_PROCESS_ID,
    instanceId: '4d386b06-f4a3-4d74-bfbb-31668bd153b7',
    createdAt: new Date('2026-11-22T10:15:30.250Z'),
    countryC1: 'SE',
    document,
    ...overrides,
  };
}

/** A good envelope around base-example.xml. */
export function goodEnvelope(): string {
  return wrapInSbdh(invoiceInput(example('base-example.xml')));
}

/** Changes a parsed envelope and writes it back (no reformatting). */
export function mutate(xml: string, change: (doc: XmlDocument) => void): string {
  const doc = parseTrusted(xml);
  try {
    change(doc);
    return doc.toString({ format: false });
  } finally {
    doc.dispose();
  }
}
