// Reading the UBL a TDD is built from: the project's hardened reader, its refusals as TddBuildError.
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { UblReadError, withUblDocument } from '../../../invoices/index.ts';
import { TddBuildError } from './errors.ts';

/** Runs `read` on the root of a UBL Invoice or CreditNote; unsafe, broken or non-UBL XML throws TddBuildError. */
export function withUbl<T>(ublXml: string | Uint8Array, read: (root: XmlNode, creditNote: boolean) => T): T {
  try {
    return withUblDocument(ublXml, ({ doc, documentType }) => read(doc.root, documentType === 'CreditNote'));
  } catch (err) {
    if (err instanceof UblReadError) throw new TddBuildError(err.rule, err.message);
    throw err;
  }
}
