// The envelope against its document: sender/receiver = the document's parties' EndpointIDs, the
// document type and process = the document's root, CustomizationID and ProfileID.
import { expect } from 'chai';
import {
  BILLING_PROCESS_ID,
  CREDIT_NOTE_DOCUMENT_TYPE_ID,
  INVOICE_DOCUMENT_TYPE_ID,
  SK_TAX_DATA_DOCUMENT_TYPE_ID,
  TAX_REPORTING_PROCESS_ID,
} from '../../../src/modules/delivery/peppol/identifiers.ts';
import { SbdhError, checkEnvelope, checkSbdhAgainstDocument, readPayloadFacts, readSbdh, wrapInSbdh, type SbdhHeader } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { needArtifacts } from '../../validation/support/paths.ts';
import { BASE_BUYER, BASE_SELLER, TDD_EXAMPLES, example, goodEnvelope, invoiceInput } from './support.ts';

describe('SBDH: consistency with the document', () => {
  before(needArtifacts);

  const header = (overrides: Partial<SbdhHeader> = {}): SbdhHeader => ({
    sender: BASE_SELLER,
    receiver: BASE_BUYER,
    documentTypeId: INVOICE_DOCUMENT_TYPE_ID,
    processId: BILLING_PROCESS_ID,
    instanceId: 'm-1',
    createdAt: new Date(),
    countryC1: 'SE',
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    type: 'Invoice',
    mlsTo: null,
    mlsType: null,
    ...overrides,
  });

  it('reads the routing facts of a UBL invoice', () => {
    expect(readPayloadFacts(example('base-example.xml'))).to.deep.equal({
      namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      localName: 'Invoice',
      customizationId: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      profileId: BILLING_PROCESS_ID,
      senderEndpoint: BASE_SELLER,
      receiverEndpoint: BASE_BUYER,
    });
  });

  it('finds nothing when the envelope agrees with its document (receiver compared case-insensitively)', () => {
    expect(checkEnvelope(readSbdh(goodEnvelope()))).to.deep.equal([]);
    expect(checkSbdhAgainstDocument(header({ receiver: '0002:fr23342' }), readPayloadFacts(example('base-example.xml')))).to.deep.equal([]);
  });

  it('finds a receiver that is not the buyer', () => {
    const read = readSbdh(wrapInSbdh(invoiceInput(example('base-example.xml'), { receiver: '0245:2020273893' })));
    const findings = checkEnvelope(read);
    expect(findings.map((f) => f.code)).to.deep.equal(['SBDH-RECEIVER-MISMATCH']);
    expect(findings[0]?.message).to.contain('0245:2020273893').and.to.contain('0002:FR23342');
  });

  it('finds a sender that is not the seller, or a document without one', () => {
    const facts = readPayloadFacts(example('base-example.xml'));
    expect(checkSbdhAgainstDocument(header({ sender: '0088:1111111111111' }), facts).map((f) => f.code)).to.deep.equal(['SBDH-SENDER-MISMATCH']);
    const noSeller = checkSbdhAgainstDocument(header(), { ...facts, senderEndpoint: null });
    expect(noSeller.map((f) => f.code)).to.deep.equal(['SBDH-SENDER-MISMATCH']);
    expect(noSeller[0]?.message).to.contain('names no sender');
  });

  it('finds a document type or process that is not the document', () => {
    const invoice = readPayloadFacts(example('base-example.xml'));
    expect(checkSbdhAgainstDocument(header({ documentTypeId: CREDIT_NOTE_DOCUMENT_TYPE_ID }), invoice).map((f) => f.code)).to.deep.equal(['SBDH-DOCUMENT-TYPE-MISMATCH']);
    const otherCustomization = INVOICE_DOCUMENT_TYPE_ID.replace('poacc:billing:3.0::', 'poacc:selfbilling:3.0::');
    const customization = checkSbdhAgainstDocument(header({ documentTypeId: otherCustomization }), invoice);
    expect(customization.map((f) => f.code)).to.deep.equal(['SBDH-DOCUMENT-TYPE-MISMATCH']);
    expect(customization[0]?.message).to.contain('customization');
    expect(checkSbdhAgainstDocument(header({ processId: 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0' }), invoice).map((f) => f.code)).to.deep.equal(['SBDH-PROCESS-MISMATCH']);
    const creditNote = readPayloadFacts(example('base-creditnote-correction.xml'));
    expect(checkSbdhAgainstDocument(header({ documentTypeId: CREDIT_NOTE_DOCUMENT_TYPE_ID }), creditNote)).to.deep.equal([]);
  });

  it('takes a TDD\'s reporting and receiving party as its sender and receiver', () => {
    const tdd = example('base-example.xml', TDD_EXAMPLES);
    const facts = readPayloadFacts(tdd);
    expect(facts).to.deep.include({ localName: 'TaxData', senderEndpoint: '0088:9482348239847239874', receiverEndpoint: '0242:FR23342', profileId: TAX_REPORTING_PROCESS_ID });
    const tddHeader = header({ receiver: '0242:fr23342', documentTypeId: SK_TAX_DATA_DOCUMENT_TYPE_ID, processId: TAX_REPORTING_PROCESS_ID });
    expect(checkSbdhAgainstDocument(tddHeader, facts)).to.deep.equal([]);
  });

  it('refuses to read facts from what is not XML', () => {
    expect(() => readPayloadFacts('not xml')).to.throw(SbdhError).with.property('code', 'SBDH-PAYLOAD');
  });
});
