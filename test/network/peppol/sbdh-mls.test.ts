// The SBDH and the Peppol MLS: C2's MLS_TO and MLS_TYPE (Peppol MLS 1.0 chapter 4) read from and
// written into the envelope, an MLS carried in one, and the SPIS identifiers the MLS parties use.
import { expect } from 'chai';
import { buildMls, readMls, type MessageLevelStatus } from '../../../src/modules/mls/index.ts';
import {
  MLS_DOCUMENT_TYPE_ID,
  MLS_PROCESS_ID,
  documentTypeFor,
  documentTypeParts,
  isSpisParticipant,
  spisParticipantOf,
} from '../../../src/modules/delivery/peppol/identifiers.ts';
import { SbdhError, checkEnvelope, readSbdh, wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { needArtifacts } from '../../validation/support/paths.ts';
import { mlsExample } from '../../mls/support.ts';
import { example, goodEnvelope, invoiceInput } from './support.ts';

/** An envelope whose BusinessScope ends with these scopes (after COUNTRY_C1). */
function withScopes(scopes: string): string {
  return goodEnvelope().replace(/(<\/BusinessScope>)/, `${scopes}$1`);
}

const scope = (type: string, value: string, identifier?: string) =>
  `<Scope><Type>${type}</Type><InstanceIdentifier>${value}</InstanceIdentifier>${identifier === undefined ? '' : `<Identifier>${identifier}</Identifier>`}</Scope>`;

describe('SBDH: MLS_TO, MLS_TYPE and an MLS inside', () => {
  before(needArtifacts);

  it('reads the official snippets: both scopes, MLS_TO only, MLS_TYPE only', () => {
    const read = (file: string) => {
      const { mlsTo, mlsType, sender, receiver, instanceId } = readSbdh(mlsExample(file));
      return { mlsTo, mlsType, sender, receiver, instanceId };
    };
    const common = { sender: '9998:sender', receiver: '9998:receiver', instanceId: 'e07a2352-83cf-11ee-8459-74563c4a6461' };
    expect(read('snippet-sbdh-mls-all.xml')).to.deep.equal({ ...common, mlsTo: '0242:987654', mlsType: 'FAILURE_ONLY' });
    // no MLS_TO: the MLS goes to C2's SPID (from the AS4 From/PartyId)
    expect(read('snippet-sbdh-mls-to-default.xml')).to.deep.equal({ ...common, mlsTo: null, mlsType: 'FAILURE_ONLY' });
    // no MLS_TYPE: null, the Network Policy default FAILURE_ONLY
    expect(read('snippet-sbdh-mls-type-default.xml')).to.deep.equal({ ...common, mlsTo: '0242:987654', mlsType: null });
  });

  it('reads an envelope without either scope as null, null', () => {
    expect(readSbdh(goodEnvelope())).to.include({ mlsTo: null, mlsType: null });
  });

  it('reads a valid MLS_TO normalised, with or without its Identifier, ALWAYS_SEND as given', () => {
    expect(readSbdh(withScopes(scope('MLS_TO', '0242:123456-MLS_NODE.P1-2', 'iso6523-actorid-upis') + scope('MLS_TYPE', 'ALWAYS_SEND')))).to.include({
      mlsTo: '0242:123456-mls_node.p1-2',
      mlsType: 'ALWAYS_SEND',
    });
    expect(readSbdh(withScopes(scope('MLS_TO', ' 0242:123456 ')))).to.include({ mlsTo: '0242:123456' });
  });

  it('ignores an invalid MLS_TO (OP-MLS-07) and an invalid MLS_TYPE (read as the default), never refusing the envelope', () => {
    const invalidTo = [
      scope('MLS_TO', '0242:12345', 'iso6523-actorid-upis'), // not 6 digits
      scope('MLS_TO', '0088:987654', 'iso6523-actorid-upis'), // not the SPIS scheme
      scope('MLS_TO', '0242:987654-ab', 'iso6523-actorid-upis'), // suffix too short
      scope('MLS_TO', '0242:987654', 'busdox-docid-qns'), // not a participant scheme
      scope('MLS_TO', 'nonsense'),
      scope('MLS_TO', ''),
      scope('MLS_TO', '0242:987654') + scope('MLS_TO', '0242:987655'), // which one?
    ];
    for (const scopes of invalidTo) expect(readSbdh(withScopes(scopes)).mlsTo, scopes).to.equal(null);
    for (const scopes of [scope('MLS_TYPE', 'always_send'), scope('MLS_TYPE', 'NEVER'), scope('MLS_TYPE', 'ALWAYS_SEND') + scope('MLS_TYPE', 'FAILURE_ONLY')]) {
      expect(readSbdh(withScopes(scopes)).mlsType, scopes).to.equal(null);
    }
  });

  it('writes MLS_TO and MLS_TYPE when given, after COUNTRY_C1, and reads them back', () => {
    const xml = wrapInSbdh(invoiceInput(example('base-example.xml'), { mlsTo: '0242:987654', mlsType: 'ALWAYS_SEND' }));
    expect(xml).to.match(/<Type>COUNTRY_C1<\/Type>[\s\S]*<Type>MLS_TO<\/Type>\s*<InstanceIdentifier>0242:987654<\/InstanceIdentifier>\s*<Identifier>iso6523-actorid-upis<\/Identifier>[\s\S]*<Type>MLS_TYPE<\/Type>\s*<InstanceIdentifier>ALWAYS_SEND</);
    expect(readSbdh(xml)).to.include({ mlsTo: '0242:987654', mlsType: 'ALWAYS_SEND' });
    const without = wrapInSbdh(invoiceInput(example('base-example.xml'), { mlsTo: null, mlsType: null }));
    expect(without).not.to.contain('MLS_');
  });

  it('refuses to write an MLS_TO a reader would ignore, or an unknown MLS_TYPE', () => {
    const code = (write: () => unknown) => {
      try {
        write();
      } catch (error) {
        if (error instanceof SbdhError) return error.code;
        throw error;
      }
      return null;
    };
    expect(code(() => wrapInSbdh(invoiceInput(example('base-example.xml'), { mlsTo: '0088:987654' })))).to.equal('SBDH-INVALID-FIELD');
    // @ts-expect-error: not an MlsType
    expect(code(() => wrapInSbdh(invoiceInput(example('base-example.xml'), { mlsType: 'SOMETIMES' })))).to.equal('SBDH-INVALID-FIELD');
  });

  it('carries an MLS: ApplicationResponse-2 / ApplicationResponse / 2.1, consistent with its parties, the same MLS inside', () => {
    const mls: MessageLevelStatus = {
      id: '0b1a9d1e-7b5f-4a8e-9c59-1f0a2b3c4d5e',
      issued_at: '2026-11-29T17:05:09.000Z',
      sender: '0242:000123',
      receiver: '0242:000456-mls_a',
      response_code: 'RE',
      description: 'Rejected',
      referenced_instance_id: '4d386b06-f4a3-4d74-bfbb-31668bd153b7',
      issues: [{ location: 'NA', description: '[BR-01] missing', reason: 'BV' }],
    };
    expect(documentTypeFor('ApplicationResponse')).to.equal(MLS_DOCUMENT_TYPE_ID);
    const envelope = wrapInSbdh({
      sender: mls.sender,
      receiver: mls.receiver,
      documentTypeId: MLS_DOCUMENT_TYPE_ID,
      processId: MLS_PROCESS_ID,
      instanceId: 'd2a0c3e4-5f60-4718-8a9b-0c1d2e3f4a5b',
      createdAt: new Date('2026-11-29T17:05:10Z'),
      countryC1: 'SK',
      document: buildMls(mls),
    });
    const read = readSbdh(envelope);
    expect(read).to.include({
      standard: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
      type: 'ApplicationResponse',
      typeVersion: '2.1',
      documentTypeId: MLS_DOCUMENT_TYPE_ID,
      processId: MLS_PROCESS_ID,
      mlsTo: null,
      mlsType: null,
    });
    expect(checkEnvelope(read)).to.deep.equal([]);
    expect(readMls(read.document)).to.deep.equal(mls);
    const wrongReceiver = readSbdh(wrapInSbdh({ ...invoiceInput(buildMls(mls)), documentTypeId: MLS_DOCUMENT_TYPE_ID, processId: MLS_PROCESS_ID, sender: mls.sender, receiver: '0242:000789' }));
    expect(checkEnvelope(wrongReceiver).map((f) => f.code)).to.deep.equal(['SBDH-RECEIVER-MISMATCH']);
  });
});

describe('Peppol identifiers of the MLS', () => {
  it('names the MLS document type and process as the MLS 1.0 specification does (chapter 9)', () => {
    expect(documentTypeParts(MLS_DOCUMENT_TYPE_ID)).to.deep.equal({
      namespace: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
      localName: 'ApplicationResponse',
      customizationId: 'urn:peppol:edec:mls:1.0',
      version: '2.1',
    });
    expect(MLS_PROCESS_ID).to.equal('urn:peppol:edec:mls');
  });

  it('knows an SPIS participant id as the MLS Schematron does (regex_spis, case-insensitive, scheme 0242)', () => {
    for (const id of ['0242:123456', '0242:123456-MLS.ANYTHING', '0242:234567-mls.P12345.99', '0242:000001-A_B', 'iso6523-actorid-upis::0242:987654']) {
      expect(isSpisParticipant(id), id).to.equal(true);
    }
    for (const id of ['0242:12345', '0242:1234567', '0088:123456', '0242:123456-ab', '0242:123456-abc.de', '0242:123456-ABC.DEF!', '123456', '']) {
      expect(isSpisParticipant(id), id).to.equal(false);
    }
  });

  it("derives an Access Point's SPIS participant from its seat id (POP987654 -> 0242:987654), null otherwise", () => {
    expect(spisParticipantOf('POP987654')).to.equal('0242:987654');
    expect(spisParticipantOf('PSK000123')).to.equal('0242:000123');
    expect(spisParticipantOf(' pdk000592 ')).to.equal('0242:000592');
    for (const cn of ['POP98765', 'POP9876543', 'CN=POP987654', 'Peppol AP', 'P1K000123', '']) expect(spisParticipantOf(cn), cn).to.equal(null);
  });
});
