// wrapInSbdh → readSbdh gives back the header and the same document (canonically), which the UBL
// reader reads into the same model as the original.
import fs from 'node:fs';
import { expect } from 'chai';
import { type XmlElement, parseTrusted } from '../../../src/platform/xml/index.ts';
import { computeTotals } from '../../../commands/invoices/totals.ts';
import {
  CREDIT_NOTE_DOCUMENT_TYPE_ID,
  SK_TAX_DATA_DOCUMENT_TYPE_ID,
  TAX_REPORTING_PROCESS_ID,
  documentTypeFor,
} from '../../../src/modules/delivery/peppol/identifiers.ts';
import { readSbdh, wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { buildUbl, readUbl } from '../../../src/modules/invoices/ubl/index.ts';
import { generateInvoice } from '../../ubl/support/generate.ts';
import { SEED } from '../../ubl/support/matrix.ts';
import { needArtifacts } from '../../validation/support/paths.ts';
import { BASE_BUYER, BASE_SELLER, EXAMPLES, NS, TDD_EXAMPLES, canonical, example, invoiceInput } from './support.ts';

describe('SBDH: wrap and read back', () => {
  before(needArtifacts);

  it('carries the official invoice example: header fields, the same XML, the same UBL model', () => {
    const original = example('base-example.xml');
    const input = invoiceInput(original);
    const envelope = readSbdh(wrapInSbdh(input));
    expect(envelope).to.deep.include({
      sender: BASE_SELLER,
      receiver: BASE_BUYER.toLowerCase(),
      documentTypeId: input.documentTypeId,
      processId: input.processId,
      instanceId: input.instanceId,
      countryC1: 'SE',
      standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      type: 'Invoice',
      typeVersion: '2.1',
    });
    expect(envelope.createdAt.toISOString()).to.equal('2026-11-22T10:15:30.250Z');
    expect(canonical(envelope.document)).to.equal(canonical(original));
    expect(readUbl(envelope.document)).to.deep.equal(readUbl(original));
  });

  it('carries the official credit note example', () => {
    const original = example('base-creditnote-correction.xml');
    const envelope = readSbdh(wrapInSbdh(invoiceInput(original, { documentTypeId: CREDIT_NOTE_DOCUMENT_TYPE_ID })));
    expect(envelope.type).to.equal('CreditNote');
    expect(envelope.standard).to.equal('urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2');
    expect(canonical(envelope.document)).to.equal(canonical(original));
    const [read, want] = [readUbl(envelope.document), readUbl(original)];
    expect(read).to.deep.equal(want);
    expect(read.totals.amount_due).to.equal(want.totals.amount_due);
  });

  it('keeps every official BIS 3.0.21 example canonically identical', () => {
    const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.xml'));
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      const original = example(file);
      const root = /<(?:\w+:)?(Invoice|CreditNote)[\s>]/.exec(original)?.[1] === 'CreditNote' ? 'CreditNote' : 'Invoice';
      const envelope = readSbdh(wrapInSbdh(invoiceInput(original, { documentTypeId: documentTypeFor(root) })));
      expect(canonical(envelope.document), file).to.equal(canonical(original));
    }
  });

  it('carries the UBL this service builds, Slovak text and all (an invoice and a credit note)', () => {
    let seen = { invoice: false, creditNote: false };
    for (let i = 0; i < 40 && !(seen.invoice && seen.creditNote); i++) {
      const content = generateInvoice(SEED, i);
      const creditNote = content.invoice_type === '381';
      if (creditNote ? seen.creditNote : seen.invoice) continue;
      seen = { invoice: seen.invoice || !creditNote, creditNote: seen.creditNote || creditNote };
      const ubl = buildUbl(content, computeTotals(content));
      const envelope = readSbdh(
        wrapInSbdh({
          sender: content.supplier.peppol_id ?? '', receiver: content.buyer.peppol_id ?? '', documentTypeId: documentTypeFor(creditNote ? 'CreditNote' : 'Invoice'),
          processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', instanceId: `msg-${i}`, createdAt: new Date(), countryC1: content.supplier.country_code, document: ubl,
        }),
      );
      expect(canonical(envelope.document)).to.equal(canonical(ubl));
      expect(readUbl(envelope.document)).to.deep.equal(readUbl(ubl));
    }
    expect(seen).to.deep.equal({ invoice: true, creditNote: true });
  });

  it('carries a Slovak TDD under its document type and the tax-reporting process', () => {
    const original = example('base-example.xml', TDD_EXAMPLES);
    const envelope = readSbdh(
      wrapInSbdh(invoiceInput(original, { sender: '0088:9482348239847239874', receiver: '0242:FR23342', documentTypeId: SK_TAX_DATA_DOCUMENT_TYPE_ID, processId: TAX_REPORTING_PROCESS_ID })),
    );
    expect(envelope).to.deep.include({ standard: 'urn:peppol:schema:sk-taxdata:1.0', type: 'TaxData', typeVersion: '1.0', processId: TAX_REPORTING_PROCESS_ID });
    expect(canonical(envelope.document)).to.equal(canonical(original));
  });

  it('writes the Envelope 2.0 header in schema order, in the SBDH namespace, with the identifier schemes', () => {
    const xml = wrapInSbdh(invoiceInput(example('base-example.xml'), { countryC1: 'sk' }));
    const doc = parseTrusted(xml);
    try {
      const names = (xpath: string) => (doc.find(`${xpath}/*`, NS) as XmlElement[]).map((e) => `${e.namespaceUri === NS.sh ? 'sh' : e.namespaceUri}:${e.name}`);
      const s = (xpath: string) => String(doc.eval(`string(${xpath})`, NS));
      expect(names('/sh:StandardBusinessDocument')).to.deep.equal(['sh:StandardBusinessDocumentHeader', 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2:Invoice']);
      const header = '/sh:StandardBusinessDocument/sh:StandardBusinessDocumentHeader';
      expect(names(header)).to.deep.equal(['sh:HeaderVersion', 'sh:Sender', 'sh:Receiver', 'sh:DocumentIdentification', 'sh:BusinessScope']);
      expect(names(`${header}/sh:DocumentIdentification`)).to.deep.equal(['sh:Standard', 'sh:TypeVersion', 'sh:InstanceIdentifier', 'sh:Type', 'sh:CreationDateAndTime']);
      expect(s(`${header}/sh:HeaderVersion`)).to.equal('1.0');
      expect(s(`${header}/sh:Sender/sh:Identifier/@Authority`)).to.equal('iso6523-actorid-upis');
      expect(s(`${header}/sh:Receiver/sh:Identifier`)).to.equal('0002:fr23342');
      const scopes = doc.find(`${header}/sh:BusinessScope/sh:Scope`, NS);
      const scope = (i: number) => (doc.find(`${header}/sh:BusinessScope/sh:Scope[${i}]/*`, NS) as XmlElement[]).map((e) => `${e.name}=${e.content}`);
      expect(scopes).to.have.length(3);
      expect(scope(1)).to.deep.equal(['Type=DOCUMENTID', `InstanceIdentifier=${documentTypeFor('Invoice')}`, 'Identifier=busdox-docid-qns']);
      expect(scope(2)).to.deep.equal(['Type=PROCESSID', 'InstanceIdentifier=urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'Identifier=cenbii-procid-ubl']);
      expect(scope(3)).to.deep.equal(['Type=COUNTRY_C1', 'InstanceIdentifier=SK']);
    } finally {
      doc.dispose();
    }
  });

  it('keeps awkward XML: a prefixed root, CDATA, character references, comments and whitespace inside', () => {
    const original = `<?xml version="1.0" encoding="UTF-8"?>
<!-- before the root: not part of the document's element -->
<inv:Invoice xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><!-- inside -->
  <cbc:Note xml:lang='sk'>Košice &#x10D;&#269; &amp; &lt;tag&gt; "q" 'a'</cbc:Note>
  <cbc:Note><![CDATA[<raw> & ]]></cbc:Note>
  <cbc:Empty></cbc:Empty>
  <?keep me?>
</inv:Invoice>
`;
    const envelope = readSbdh(wrapInSbdh(invoiceInput(original)));
    expect(canonical(envelope.document)).to.equal(canonical(original));
  });

  it('escapes header values and reads envelopes given as bytes', () => {
    const xml = wrapInSbdh(invoiceInput(example('base-example.xml'), { instanceId: 'id <&> "quoted" -->' }));
    expect(readSbdh(Buffer.from(xml, 'utf8')).instanceId).to.equal('id <&> "quoted" -->');
  });

  it("unwraps another Access Point's style: prefixed SBDH, namespaces declared on the envelope, no schemes, a time zone offset", () => {
    const original = example('base-example.xml');
    const cac = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
    const cbc = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
    // the invoice without its own cac/cbc declarations: it relies on the envelope's
    const invoice = original.replace(/^<\?xml[^>]*>\s*/, '').replace(`xmlns:cac="${cac}"`, '').replace(`xmlns:cbc="${cbc}"`, '');
    const envelope = `<?xml version="1.0"?>
<sh:StandardBusinessDocument xmlns:sh="${NS.sh}" xmlns:cac="${cac}" xmlns:cbc="${cbc}">
  <sh:StandardBusinessDocumentHeader>
    <sh:HeaderVersion>1.0</sh:HeaderVersion>
    <sh:Sender><sh:Identifier Authority="iso6523-actorid-upis">0088:9482348239847239874</sh:Identifier></sh:Sender>
    <sh:Receiver><sh:Identifier Authority="iso6523-actorid-upis">0002:FR23342</sh:Identifier></sh:Receiver>
    <sh:DocumentIdentification>
      <sh:Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</sh:Standard>
      <sh:TypeVersion>2.1</sh:TypeVersion>
      <sh:InstanceIdentifier>f59bf651-2024-47b6-9a66-9476ad2d0a1c</sh:InstanceIdentifier>
      <sh:Type>Invoice</sh:Type>
      <sh:CreationDateAndTime>2025-04-09T15:21:20.5099272+02:00</sh:CreationDateAndTime>
    </sh:DocumentIdentification>
    <sh:BusinessScope>
      <sh:Scope><sh:Type>MLS_TYPE</sh:Type><sh:InstanceIdentifier>ALWAYS_SEND</sh:InstanceIdentifier></sh:Scope>
      <sh:Scope><sh:Type>DOCUMENTID</sh:Type><sh:InstanceIdentifier>${documentTypeFor('Invoice')}</sh:InstanceIdentifier></sh:Scope>
      <sh:Scope><sh:Type>PROCESSID</sh:Type><sh:InstanceIdentifier>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</sh:InstanceIdentifier></sh:Scope>
      <sh:Scope><sh:Type>COUNTRY_C1</sh:Type><sh:InstanceIdentifier>BE</sh:InstanceIdentifier></sh:Scope>
    </sh:BusinessScope>
  </sh:StandardBusinessDocumentHeader>
  ${invoice}
</sh:StandardBusinessDocument>`;
    const read = readSbdh(envelope);
    expect(read.createdAt.toISOString()).to.equal('2025-04-09T13:21:20.509Z');
    expect(read.receiver).to.equal('0002:fr23342');
    expect(read.countryC1).to.equal('BE');
    expect(canonical(read.document)).to.equal(canonical(original));
    expect(readUbl(read.document)).to.deep.equal(readUbl(original));
  });
});
