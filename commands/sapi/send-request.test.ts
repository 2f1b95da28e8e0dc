import { expect } from 'chai';
import { SapiRefusal } from './errors.ts';
import {
  MAX_PAYLOAD_BYTES, SEND_BODY_LIMIT_BYTES, checkChecksum, checkDocumentAgainstMetadata, checkPayloadBytes, checkPayloadEncoding, checkValidation,
  participantValue, requireIdempotencyKey, type PayloadFacts, type SendMetadata,
} from './send-request.ts';

const INVOICE_TYPE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const CREDIT_NOTE_TYPE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const expectedFor = (root: 'Invoice' | 'CreditNote') => ({ documentTypeId: root === 'Invoice' ? INVOICE_TYPE : CREDIT_NOTE_TYPE, processId: PROCESS });
const metadata: SendMetadata = {
  documentId: 'FA-1', documentTypeId: INVOICE_TYPE, processId: PROCESS, senderParticipantId: '9950:sk2020273893svctest',
  receiverParticipantId: '9950:sk2020000004svctest', creationDateTime: '2026-11-20T10:00:00Z',
};
const facts: PayloadFacts = {
  root: 'Invoice', rootName: '{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice', senderEndpoint: '9950:sk2020273893svctest',
  receiverEndpoint: '9950:SK2020000004SVCTEST', profileId: PROCESS, invoiceNumber: '2026000001', issueDate: '2026-11-20', supplierCountry: 'SK',
};
const refusal = (run: () => unknown): SapiRefusal => {
  try {
    run();
  } catch (error) {
    if (error instanceof SapiRefusal) return error;
    throw error;
  }
  return expect.fail('expected a SAPI refusal');
};
const fields = (error: SapiRefusal) => error.details.map((d) => d.field);

describe('SAPI-SK send request rules', () => {
  it('the Idempotency-Key is required, at most 255 printable ASCII characters', () => {
    expect(fields(refusal(() => requireIdempotencyKey(undefined)))).to.deep.equal(['Idempotency-Key']);
    expect(refusal(() => requireIdempotencyKey('x'.repeat(256))).code).to.equal('SAPI-VAL-001');
    expect(refusal(() => requireIdempotencyKey('č')).code).to.equal('SAPI-VAL-001');
    expect(requireIdempotencyKey('x'.repeat(255))).to.have.length(255);
  });

  it('the payload is UTF-8 of at most 10 MB (10 × 1,048,576 bytes); the body limit leaves room for escaping', () => {
    expect(MAX_PAYLOAD_BYTES).to.equal(10_485_760);
    expect(SEND_BODY_LIMIT_BYTES).to.be.greaterThan(3 * MAX_PAYLOAD_BYTES);
    checkPayloadEncoding(undefined);
    checkPayloadEncoding('utf-8');
    expect(fields(refusal(() => checkPayloadEncoding('UTF-16')))).to.deep.equal(['payloadEncoding']);
    checkPayloadBytes({ wellFormed: true, bytes: MAX_PAYLOAD_BYTES });
    expect(fields(refusal(() => checkPayloadBytes({ wellFormed: true, bytes: MAX_PAYLOAD_BYTES + 1 })))).to.deep.equal(['payload']);
    expect(fields(refusal(() => checkPayloadBytes({ wellFormed: false, bytes: 10 })))).to.deep.equal(['payload']);
  });

  it('a checksum, when given, must be the payload\'s SHA-256', () => {
    checkChecksum(undefined, 'a'.repeat(64));
    checkChecksum('a'.repeat(64), 'a'.repeat(64));
    expect(refusal(() => checkChecksum('b'.repeat(64), 'a'.repeat(64))).code).to.equal('SAPI-VAL-CHECKSUM');
  });

  it('the metadata agrees with the UBL; every disagreement is one detail naming its field', () => {
    expect(checkDocumentAgainstMetadata(metadata, facts, expectedFor)).to.deep.equal({ root: 'Invoice', invoiceNumber: '2026000001', issueDate: '2026-11-20' });
    expect(checkDocumentAgainstMetadata({ ...metadata, documentTypeId: `busdox-docid-qns::${INVOICE_TYPE}` }, facts, expectedFor).root).to.equal('Invoice');
    expect(checkDocumentAgainstMetadata({ ...metadata, senderParticipantId: `iso6523-actorid-upis::${metadata.senderParticipantId}` }, facts, expectedFor).root).to.equal('Invoice');
    expect(participantValue('iso6523-actorid-upis::9950:sk2020273893svctest')).to.equal('9950:sk2020273893svctest');
    const all = refusal(() => checkDocumentAgainstMetadata({ ...metadata, documentTypeId: CREDIT_NOTE_TYPE, receiverParticipantId: '9950:other' }, { ...facts, profileId: 'x' }, expectedFor));
    expect(fields(all)).to.deep.equal(['metadata.documentTypeId', 'metadata.processId', 'metadata.receiverParticipantId']);
    expect(refusal(() => checkDocumentAgainstMetadata(metadata, { ...facts, root: null }, expectedFor)).message).to.equal('unsupported document root');
    expect(fields(refusal(() => checkDocumentAgainstMetadata(metadata, { ...facts, senderEndpoint: null }, expectedFor)))).to.deep.equal(['metadata.senderParticipantId']);
  });

  it('a fatal finding refuses with one detail per finding; strict validation fails closed on a missing rule set, lenient goes on', () => {
    const clean = { fatal: [], stages: { xsd: true, peppol: true, slovak: true } };
    checkValidation(clean, true);
    const invalid = refusal(() => checkValidation({ fatal: [{ rule: 'BR-CO-16', location: '/Invoice', message: 'm' }, { rule: 'SK-R-1', location: '', message: 'n' }], stages: { xsd: true, peppol: false, slovak: false } }, true));
    expect(invalid.code).to.equal('SAPI-VAL-001');
    expect(invalid.details).to.deep.equal([{ field: 'BR-CO-16', issue: 'm (at /Invoice)' }, { field: 'SK-R-1', issue: 'n' }]);
    const missing = { fatal: [], stages: { xsd: null, peppol: null, slovak: true } };
    const unavailable = refusal(() => checkValidation(missing, true));
    expect(unavailable.code).to.equal('SAPI-VAL-VALIDATION-UNAVAILABLE');
    expect(fields(unavailable)).to.deep.equal(['xsd', 'peppol']);
    checkValidation(missing, false);
    expect(refusal(() => checkValidation({ fatal: [{ rule: 'VALIDATION-TIMEOUT', location: '', message: 't' }], stages: { xsd: null, peppol: null, slovak: null } }, false)).code).to.equal('SAPI-VAL-VALIDATION-UNAVAILABLE');
  });
});
