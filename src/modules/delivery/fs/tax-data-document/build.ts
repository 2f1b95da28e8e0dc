/**
 * UBL Invoice or CreditNote → Slovak Tax Data Document (Peppol SK TDD 1.0.0,
 * `urn:peppol:taxdata:sk-1`), as README §5 of ../shared/validation/sk-tdd describes it.
 *
 * ```ts
 * const tdd = buildTdd(ublXml, { uuid: randomUUID(), issuedAt: new Date(), reporterRole: 'C2',
 *   reportingParty: '0245:2020273893', receivingParty: '0242:…', reportersRepresentative: '…',
 *   taxAuthority: { id: 'SK', name: 'Finančná správa SR' } });
 * ```
 *
 * The UBL is read with the hardened reader (no DTD, size and depth limits); a document the TDD
 * cannot be built from throws TddBuildError, never anything else. The result is not validated
 * here: createTddValidator runs the official XSD and Schematron on it.
 */
import { NS } from '../../../invoices/index.ts';
import { writeReportedDocument } from './document.ts';
import { writeHeader, type TddHeader } from './header.ts';
import { PXS } from './names.ts';
import { withUbl } from './source.ts';
import { newXmlDocument } from '../../../../platform/xml/write.ts';

export function buildTdd(ublXml: string | Uint8Array, header: TddHeader): string {
  return withUbl(ublXml, (ubl, creditNote) => {
    const xml = newXmlDocument(PXS, 'pxs:TaxData', { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
    writeHeader(xml.root, header);
    writeReportedDocument(xml.root, ubl, creditNote);
    return xml.end();
  });
}
