import { expect } from 'chai';
import {
  BILLING_PROCESS_ID,
  CREDIT_NOTE_DOCUMENT_TYPE_ID,
  INVOICE_DOCUMENT_TYPE_ID,
  ParticipantIdError,
  SK_TAX_DATA_DOCUMENT_TYPE_ID,
  TAX_REPORTING_PROCESS_ID,
  documentTypeFor,
  documentTypeParts,
  normaliseParticipantId,
  parseParticipantId,
  sameParticipant,
} from '../../../src/modules/delivery/peppol/identifiers.ts';

describe('Peppol identifiers', () => {
  it('gives the BIS Billing 3.0 document type of each UBL root', () => {
    expect(documentTypeFor('Invoice')).to.equal(
      'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
    );
    expect(documentTypeFor('CreditNote')).to.equal(
      'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
    );
    expect(BILLING_PROCESS_ID).to.equal('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    expect(TAX_REPORTING_PROCESS_ID).to.equal('urn:peppol:taxreporting');
  });

  it('takes document type ids apart into root, customization and version', () => {
    expect(documentTypeParts(INVOICE_DOCUMENT_TYPE_ID)).to.deep.equal({
      namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      localName: 'Invoice',
      customizationId: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      version: '2.1',
    });
    expect(documentTypeParts(CREDIT_NOTE_DOCUMENT_TYPE_ID)?.localName).to.equal('CreditNote');
    expect(documentTypeParts(SK_TAX_DATA_DOCUMENT_TYPE_ID)).to.deep.equal({
      namespace: 'urn:peppol:schema:sk-taxdata:1.0',
      localName: 'TaxData',
      customizationId: 'urn:peppol:taxdata:sk-1',
      version: '1.0',
    });
    for (const bad of ['', 'Invoice', 'urn:x::Invoice', 'urn:x::Invoice##cust', 'urn:x##cust::2.1', '::Invoice##cust::2.1', 'urn:x::Invoice##cust::']) {
      expect(documentTypeParts(bad), bad).to.equal(null);
    }
  });

  it('parses scheme:value participant ids, the value lower-cased', () => {
    expect(parseParticipantId('0245:2020123456')).to.deep.equal({ scheme: '0245', value: '2020123456' });
    expect(parseParticipantId(' 9950:SK2020273893svcTEST ')).to.deep.equal({ scheme: '9950', value: 'sk2020273893svctest' });
    expect(parseParticipantId('iso6523-actorid-upis::0002:FR23342')).to.deep.equal({ scheme: '0002', value: 'fr23342' });
    expect(parseParticipantId('0088:a:b')).to.deep.equal({ scheme: '0088', value: 'a:b' });
    expect(normaliseParticipantId('0002:FR23342')).to.equal('0002:fr23342');
  });

  it('refuses malformed participant ids with a typed error', () => {
    const bad = ['', '0245', '0245:', ':2020123456', '245:1', '02450:1', 'abcd:1', '0245:has space', '0245:č', `0088:${'x'.repeat(131)}`, 'other-scheme::0245:1'];
    for (const id of bad) {
      expect(() => parseParticipantId(id), id).to.throw(ParticipantIdError).with.property('code', 'PEPPOL-PARTICIPANT-ID');
    }
    expect(parseParticipantId(`0088:${'x'.repeat(130)}`).value).to.have.length(130);
  });

  it('compares participants case-insensitively, and a malformed id equals nothing', () => {
    expect(sameParticipant('0002:FR23342', 'iso6523-actorid-upis::0002:fr23342')).to.equal(true);
    expect(sameParticipant('0002:FR23342', '0088:FR23342')).to.equal(false);
    expect(sameParticipant('nonsense', 'nonsense')).to.equal(false);
  });
});
