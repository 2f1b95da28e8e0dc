// The receiver keeps the sender's very bytes: what readSbdh returns is the UTF-8 declaration and
// then the business document's characters exactly as they sit in the envelope (the SAPI-SK inbox
// hands them out byte for byte), and wrapInSbdh puts the document's own characters there.
import { expect } from 'chai';
import { computeTotals } from '../../../commands/invoices/totals.ts';
import { buildTdd } from '../../../src/modules/delivery/fs/tax-data-document/index.ts';
import { documentTypeFor, MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID, TAX_REPORTING_PROCESS_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { SbdhError } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { buildMls } from '../../../src/modules/mls/index.ts';
import { slovakHeader } from '../../tax-data-document/support/headers.ts';
import { readSbdh, wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { buildUbl } from '../../../src/modules/invoices/ubl/index.ts';
import { generateInvoice } from '../../ubl/support/generate.ts';
import { SEED } from '../../ubl/support/matrix.ts';
import { needArtifacts } from '../../validation/support/paths.ts';
import { NS, canonical, example, invoiceInput } from './support.ts';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** The document from its root's start tag to its end tag: what can travel inside an envelope. */
const rootOf = (xml: string) => xml.slice(xml.search(/<(?:\w+:)?(?:Invoice|CreditNote)[\s>]/), xml.search(/<\/(?:\w+:)?(?:Invoice|CreditNote)>\s*$/)) + /<\/(?:\w+:)?(?:Invoice|CreditNote)>\s*$/.exec(xml)![0].trimEnd();

function envelopeAround(payload: string, rootAttributes = ''): string {
  return `<?xml version="1.0"?>
<sh:StandardBusinessDocument xmlns:sh="${NS.sh}"${rootAttributes}>
  <sh:StandardBusinessDocumentHeader>
    <sh:HeaderVersion>1.0</sh:HeaderVersion>
    <sh:Sender><sh:Identifier Authority="iso6523-actorid-upis">0088:9482348239847239874</sh:Identifier></sh:Sender>
    <sh:Receiver><sh:Identifier Authority="iso6523-actorid-upis">0002:FR23342</sh:Identifier></sh:Receiver>
    <sh:DocumentIdentification>
      <sh:Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</sh:Standard>
      <sh:TypeVersion>2.1</sh:TypeVersion>
      <sh:InstanceIdentifier>f59bf651-2024-47b6-9a66-9476ad2d0a1c</sh:InstanceIdentifier>
      <sh:Type>Invoice</sh:Type>
      <sh:CreationDateAndTime>2025-04-09T15:21:20Z</sh:CreationDateAndTime>
    </sh:DocumentIdentification>
    <sh:BusinessScope>
      <sh:Scope><sh:Type>DOCUMENTID</sh:Type><sh:InstanceIdentifier>${documentTypeFor('Invoice')}</sh:InstanceIdentifier></sh:Scope>
      <sh:Scope><sh:Type>PROCESSID</sh:Type><sh:InstanceIdentifier>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</sh:InstanceIdentifier></sh:Scope>
      <sh:Scope><sh:Type>COUNTRY_C1</sh:Type><sh:InstanceIdentifier>BE</sh:InstanceIdentifier></sh:Scope>
    </sh:BusinessScope>
  </sh:StandardBusinessDocumentHeader>
  ${payload}
</sh:StandardBusinessDocument>`;
}

describe('SBDH: the business document byte for byte', () => {
  before(needArtifacts);

  it('gives back the UBL this service builds exactly (an invoice and a credit note)', () => {
    for (const i of [0, 2]) {
      const content = generateInvoice(SEED, i);
      const ubl = buildUbl(content, computeTotals(content));
      const read = readSbdh(wrapInSbdh({
        sender: content.supplier.peppol_id ?? '', receiver: content.buyer.peppol_id ?? '', documentTypeId: documentTypeFor(content.invoice_type === '381' ? 'CreditNote' : 'Invoice'),
        processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', instanceId: `msg-${i}`, createdAt: new Date(), countryC1: content.supplier.country_code, document: ubl,
      }));
      expect(read.document).to.equal(ubl);
    }
  });

  it('envelopes a document our writer produced (a TDD, an MLS) as written, the same envelope as when parsed back; a written root that is not the type\'s is refused', () => {
    const content = generateInvoice(SEED, 0);
    const tdd = buildTdd(buildUbl(content, computeTotals(content)), slovakHeader('C2', '0088:9482348239847239874'));
    const mls = buildMls({
      id: 'mls-1', issued_at: '2026-11-29T17:05:10Z', sender: '0242:000123', receiver: '0242:000456', response_code: 'RE', description: 'Rejected',
      referenced_instance_id: '4d386b06-f4a3-4d74-bfbb-31668bd153b7', issues: [{ location: 'NA', description: '[BR-01] missing & <more>', reason: 'BV' }],
    });
    const common = { sender: '0245:2020273893', receiver: '0242:000456', instanceId: 'i-1', createdAt: new Date('2026-11-29T17:05:10Z'), countryC1: 'SK' };
    const tddInput = { ...common, documentTypeId: SK_TAX_DATA_DOCUMENT_TYPE_ID, processId: TAX_REPORTING_PROCESS_ID, document: tdd };
    const mlsInput = { ...common, documentTypeId: MLS_DOCUMENT_TYPE_ID, processId: MLS_PROCESS_ID, document: mls };
    for (const input of [tddInput, mlsInput]) {
      const written = wrapInSbdh({ ...input, written: true });
      expect(written).to.equal(wrapInSbdh(input));
      expect(readSbdh(written).document).to.equal(input.document.trimEnd());
    }
    expect(() => wrapInSbdh({ ...tddInput, document: mls, written: true })).to.throw(SbdhError, /root is not/);
    expect(() => wrapInSbdh({ ...mlsInput, document: tdd, written: true })).to.throw(SbdhError, /root is not/);
  });

  it("keeps another writer's characters: the official example's root element to the byte, after the UTF-8 declaration", () => {
    const original = example('base-example.xml');
    const read = readSbdh(wrapInSbdh(invoiceInput(original)));
    expect(read.document).to.equal(DECLARATION + rootOf(original));
  });

  it('keeps what a serialiser would rewrite: single quotes, an empty element written open and shut, character references', () => {
    const payload = `<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'
   xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:Note xml:lang='sk'>Ko&#x161;ice &#269;</cbc:Note><cbc:Empty></cbc:Empty></Invoice>`;
    const read = readSbdh(envelopeAround(payload));
    expect(read.document).to.equal(DECLARATION + payload);
    expect(readSbdh(Buffer.from(envelopeAround(payload), 'utf8')).document).to.equal(DECLARATION + payload);
    // and through our own writer too
    expect(readSbdh(wrapInSbdh(invoiceInput(`${DECLARATION}${payload}\n`))).document).to.equal(DECLARATION + payload);
  });

  it('wraps the sender\'s characters whatever lies outside the root: comments and a processing instruction before and after, a look-alike end tag in a comment', () => {
    const payload = `<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'
   xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:Note>a &amp; b<!-- in --></cbc:Note><cbc:Empty></cbc:Empty></Invoice>`;
    const around: [before: string, after: string, verbatim: boolean][] = [
      ['', '', true],
      ['<!-- before -->\n<?pi data?>\n', '', true],
      ['', '\n<!-- after -->', true],
      // the last end tag in the text is not the root's: libxml2's serialisation travels instead
      ['<!-- before -->', '<!-- </Invoice> -->', false],
    ];
    for (const [before, after, verbatim] of around) {
      const document = `<?xml version="1.0" encoding="UTF-8"?>\n${before}${payload}${after}\n`;
      const read = readSbdh(wrapInSbdh(invoiceInput(document)));
      expect(canonical(read.document), JSON.stringify([before, after])).to.equal(canonical(document));
      expect(read.document === DECLARATION + payload, JSON.stringify([before, after])).to.equal(verbatim);
    }
  });

  it('serialises a payload that leans on the envelope for a namespace (its characters alone are not the same XML)', () => {
    const cbc = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
    const payload = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:Note>x</cbc:Note></Invoice>`;
    const read = readSbdh(envelopeAround(payload, ` xmlns:cbc="${cbc}"`));
    expect(read.document).to.not.equal(DECLARATION + payload);
    expect(read.document).to.include(`xmlns:cbc="${cbc}"`);
    expect(canonical(read.document)).to.equal(canonical(payload.replace('<Invoice ', `<Invoice xmlns:cbc="${cbc}" `)));
  });
});
