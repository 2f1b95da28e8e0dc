// Broken, hostile and inconsistent envelopes (and documents that cannot be enveloped) give an
// SbdhError with a code, never a generic crash.
import { expect } from 'chai';
import type { XmlDocument, XmlElement } from '../../../src/platform/xml/index.ts';
import { CREDIT_NOTE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { SbdhError, readSbdh, wrapInSbdh, type SbdhErrorCode } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { readUbl } from '../../../src/modules/invoices/ubl/index.ts';
import { ENTITY_TEXT, encode, UTFS } from '../../validation/support/encodings.ts';
import { needArtifacts } from '../../validation/support/paths.ts';
import { NS, example, goodEnvelope, invoiceInput, mutate } from './support.ts';

function refused(run: () => unknown, code: SbdhErrorCode, message?: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'no error').to.be.instanceOf(SbdhError);
  const error = caught as SbdhError;
  expect(error.code, error.message).to.equal(code);
  if (message) expect(error.message).to.match(message);
}

const HEADER = '/sh:StandardBusinessDocument/sh:StandardBusinessDocumentHeader';

function node(doc: XmlDocument, xpath: string): XmlElement {
  const found = doc.get(xpath, NS);
  if (!found) throw new Error(`fixture: nothing at ${xpath}`);
  return found as XmlElement;
}

/** Replaces the text of the element at `xpath`. */
function setText(xml: string, xpath: string, value: string): string {
  return mutate(xml, (doc) => {
    const el = node(doc, xpath);
    el.firstChild?.remove();
    el.addText(value);
  });
}

const remove = (xml: string, xpath: string) => mutate(xml, (doc) => node(doc, xpath).remove());

describe('SBDH: refusals', () => {
  let good: string;
  before(function () {
    needArtifacts.call(this);
    good = goodEnvelope();
  });

  describe('reading', () => {
    it('refuses what is not XML', () => {
      refused(() => readSbdh('this is not XML'), 'SBDH-MALFORMED', /XML-MALFORMED/);
      refused(() => readSbdh(''), 'SBDH-MALFORMED');
      refused(() => readSbdh(good.slice(0, good.length / 2)), 'SBDH-MALFORMED');
      refused(() => readSbdh(new Uint8Array([0xff, 0xfe, 0x00, 0x3c])), 'SBDH-MALFORMED');
    });

    it('refuses a DOCTYPE before any parser expands it (billion laughs, external entity)', () => {
      const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<StandardBusinessDocument xmlns="${NS.sh}">&lol3;</StandardBusinessDocument>`;
      refused(() => readSbdh(laughs), 'SBDH-UNSAFE', /XML-DOCTYPE/);
      const xxe = good.replace(/^<\?xml[^>]*>/, '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>').replace('>1.0</HeaderVersion>', '>&xxe;</HeaderVersion>');
      refused(() => readSbdh(xxe), 'SBDH-UNSAFE', /XML-DOCTYPE/);
    });

    it('refuses a DOCTYPE in a UTF-16 or UTF-32 envelope (with or without BOM): the receiver never sees the entity', () => {
      // the entity is used in the invoice's note: before, the inbound reader returned its text there
      const hostile = (utf: string) =>
        good
          .replace(/^<\?xml[^>]*>/, `<?xml version="1.0" encoding="${utf.slice(0, 6)}"?><!DOCTYPE x [<!ENTITY e "${ENTITY_TEXT}">]>`)
          .replace('</cbc:InvoiceTypeCode>', '</cbc:InvoiceTypeCode><cbc:Note>&e;</cbc:Note>');
      for (const utf of UTFS) {
        for (const bom of [false, true]) {
          let caught: unknown;
          try {
            readUbl(readSbdh(encode(hostile(utf), utf, bom)).document);
          } catch (error) {
            caught = error;
          }
          expect(caught, `${utf} bom=${bom}`).to.be.instanceOf(SbdhError);
          const error = caught as SbdhError;
          expect([error.code, error.message.includes(ENTITY_TEXT)]).to.deep.equal(utf.startsWith('UTF-16') ? ['SBDH-UNSAFE', false] : ['SBDH-MALFORMED', false]);
          expect(error.message).to.match(utf.startsWith('UTF-16') ? /XML-DOCTYPE/ : /XML-ENCODING-UNSUPPORTED/);
        }
      }
    });

    it('reads a UTF-16 envelope with a BOM as its UTF-8 original', () => {
      const utf16 = encode(good.replace(/^<\?xml[^>]*>/, '<?xml version="1.0" encoding="UTF-16"?>'), 'UTF-16LE', true);
      expect(readSbdh(utf16)).to.deep.equal(readSbdh(good));
    });

    it('refuses an envelope of more than the element bound (200,000 notes) before parsing it', () => {
      const notes = good.replace('</cbc:InvoiceTypeCode>', `</cbc:InvoiceTypeCode>${'<cbc:Note>x</cbc:Note>'.repeat(200_000)}`);
      refused(() => readSbdh(Buffer.from(notes)), 'SBDH-UNSAFE', /XML-TOO-MANY-ELEMENTS/);
    });

    it('refuses a document nested too deep', () => {
      const deep = `<StandardBusinessDocument xmlns="${NS.sh}">${'<a>'.repeat(80)}${'</a>'.repeat(80)}</StandardBusinessDocument>`;
      refused(() => readSbdh(deep), 'SBDH-UNSAFE', /XML-TOO-DEEP/);
    });

    it('refuses a root other than StandardBusinessDocument in the SBDH namespace', () => {
      refused(() => readSbdh(example('base-example.xml')), 'SBDH-NOT-SBDH');
      refused(() => readSbdh(good.replace(`xmlns="${NS.sh}"`, 'xmlns="urn:not-sbdh"')), 'SBDH-NOT-SBDH');
    });

    it('refuses an envelope without a Sender, or with two', () => {
      refused(() => readSbdh(remove(good, `${HEADER}/sh:Sender`)), 'SBDH-MISSING-FIELD', /Sender/);
      const twice = mutate(good, (doc) => {
        const sender = node(doc, `${HEADER}/sh:Sender`);
        const copy = node(doc, HEADER).addElement('Sender');
        copy.addText(sender.content);
      });
      refused(() => readSbdh(twice), 'SBDH-INVALID-FIELD', /Sender appears 2 times/);
    });

    it('refuses a wrong Authority and a malformed participant id', () => {
      const authority = mutate(good, (doc) => {
        const identifier = node(doc, `${HEADER}/sh:Receiver/sh:Identifier`);
        identifier.attr('Authority')?.remove();
        identifier.setAttr('Authority', 'GLN');
      });
      refused(() => readSbdh(authority), 'SBDH-INVALID-FIELD', /Authority/);
      refused(() => readSbdh(remove(good, `${HEADER}/sh:Receiver/sh:Identifier/@Authority`)), 'SBDH-MISSING-FIELD', /Authority/);
      refused(() => readSbdh(setText(good, `${HEADER}/sh:Sender/sh:Identifier`, 'GLN 123')), 'SBDH-INVALID-FIELD', /Sender\/Identifier/);
    });

    it('refuses a missing or wrong header field', () => {
      refused(() => readSbdh(setText(good, `${HEADER}/sh:HeaderVersion`, '2.0')), 'SBDH-INVALID-FIELD', /HeaderVersion/);
      refused(() => readSbdh(remove(good, `${HEADER}/sh:DocumentIdentification/sh:InstanceIdentifier`)), 'SBDH-MISSING-FIELD', /InstanceIdentifier/);
      refused(() => readSbdh(setText(good, `${HEADER}/sh:DocumentIdentification/sh:InstanceIdentifier`, '  ')), 'SBDH-MISSING-FIELD', /InstanceIdentifier/);
      refused(() => readSbdh(setText(good, `${HEADER}/sh:DocumentIdentification/sh:CreationDateAndTime`, 'yesterday')), 'SBDH-INVALID-FIELD', /CreationDateAndTime/);
      refused(() => readSbdh(setText(good, `${HEADER}/sh:DocumentIdentification/sh:CreationDateAndTime`, '2026-02-30T25:00:00Z')), 'SBDH-INVALID-FIELD', /CreationDateAndTime/);
      refused(() => readSbdh(remove(good, `${HEADER}/sh:BusinessScope`)), 'SBDH-MISSING-FIELD', /BusinessScope/);
    });

    it('refuses missing or repeated scopes and unknown identifier schemes', () => {
      const scope = (type: string) => `${HEADER}/sh:BusinessScope/sh:Scope[sh:Type = '${type}']`;
      refused(() => readSbdh(remove(good, scope('COUNTRY_C1'))), 'SBDH-MISSING-FIELD', /COUNTRY_C1/);
      refused(() => readSbdh(remove(good, scope('PROCESSID'))), 'SBDH-MISSING-FIELD', /PROCESSID/);
      refused(() => readSbdh(remove(good, scope('DOCUMENTID'))), 'SBDH-MISSING-FIELD', /DOCUMENTID/);
      refused(() => readSbdh(setText(good, `${scope('COUNTRY_C1')}/sh:InstanceIdentifier`, 'Slovakia')), 'SBDH-INVALID-FIELD', /COUNTRY_C1/);
      refused(() => readSbdh(setText(good, `${scope('DOCUMENTID')}/sh:Identifier`, 'other-scheme')), 'SBDH-INVALID-FIELD', /DOCUMENTID scheme/);
      refused(() => readSbdh(setText(good, `${scope('PROCESSID')}/sh:Identifier`, 'other-scheme')), 'SBDH-INVALID-FIELD', /PROCESSID scheme/);
      const twice = good.replace('<Type>COUNTRY_C1</Type>', '<Type>COUNTRY_C1</Type><InstanceIdentifier>SK</InstanceIdentifier></Scope><Scope><Type>COUNTRY_C1</Type>');
      refused(() => readSbdh(twice), 'SBDH-INVALID-FIELD', /COUNTRY_C1 appears 2 times/);
    });

    it('refuses an envelope whose header does not describe its document', () => {
      const identification = `${HEADER}/sh:DocumentIdentification`;
      refused(() => readSbdh(setText(good, `${identification}/sh:Type`, 'CreditNote')), 'SBDH-INVALID-FIELD', /Type "CreditNote"/);
      refused(() => readSbdh(setText(good, `${identification}/sh:Standard`, 'urn:other')), 'SBDH-INVALID-FIELD', /Standard/);
      refused(() => readSbdh(setText(good, `${identification}/sh:TypeVersion`, '2.0')), 'SBDH-INVALID-FIELD', /TypeVersion/);
      const docType = `${HEADER}/sh:BusinessScope/sh:Scope[sh:Type = 'DOCUMENTID']/sh:InstanceIdentifier`;
      refused(() => readSbdh(setText(good, docType, CREDIT_NOTE_DOCUMENT_TYPE_ID)), 'SBDH-INVALID-FIELD', /DOCUMENTID/);
      refused(() => readSbdh(setText(good, docType, 'not a document type')), 'SBDH-INVALID-FIELD', /DOCUMENTID/);
    });

    it('refuses two business documents, none, or text beside them', () => {
      const two = good.replace('</StandardBusinessDocument>', '<x:Second xmlns:x="urn:x"/></StandardBusinessDocument>');
      refused(() => readSbdh(two), 'SBDH-PAYLOAD', /carries 2/);
      refused(() => readSbdh(remove(good, '/sh:StandardBusinessDocument/*[2]')), 'SBDH-PAYLOAD', /carries 0/);
      refused(() => readSbdh(good.replace('</StandardBusinessDocument>', 'stray text</StandardBusinessDocument>')), 'SBDH-PAYLOAD', /text/);
      refused(() => readSbdh(remove(good, HEADER)), 'SBDH-MISSING-FIELD', /StandardBusinessDocumentHeader/);
    });
  });

  describe('writing', () => {
    it('refuses malformed participants, an empty instance id and a bad country', () => {
      const document = example('base-example.xml');
      refused(() => wrapInSbdh(invoiceInput(document, { sender: '9482348239847239874' })), 'SBDH-INVALID-FIELD', /Sender/);
      refused(() => wrapInSbdh(invoiceInput(document, { receiver: '0002:' })), 'SBDH-INVALID-FIELD', /Receiver/);
      refused(() => wrapInSbdh(invoiceInput(document, { instanceId: ' ' })), 'SBDH-MISSING-FIELD', /instance/);
      refused(() => wrapInSbdh(invoiceInput(document, { countryC1: 'SVK' })), 'SBDH-INVALID-FIELD', /COUNTRY_C1/);
      refused(() => wrapInSbdh(invoiceInput(document, { documentTypeId: 'Invoice' })), 'SBDH-INVALID-FIELD', /document type/);
      refused(() => wrapInSbdh(invoiceInput(document, { createdAt: new Date('nonsense') })), 'SBDH-INVALID-FIELD', /creation time/);
    });

    it('refuses header text XML cannot carry (xmlbuilder2 would write it as is)', () => {
      const document = example('base-example.xml');
      for (const instanceId of ['a\u0001b', 'a\uFFFEb', 'a\uD800b']) {
        refused(() => wrapInSbdh(invoiceInput(document, { instanceId })), 'SBDH-INVALID-FIELD', /instance identifier/);
      }
      refused(() => wrapInSbdh(invoiceInput(document, { processId: 'urn:x\u0000' })), 'SBDH-INVALID-FIELD', /process id/);
      expect(readSbdh(wrapInSbdh(invoiceInput(document, { instanceId: 'emoji 😀 ok' }))).instanceId).to.equal('emoji 😀 ok');
    });

    it('refuses a document that is not the declared document type, not XML, or unsafe', () => {
      refused(() => wrapInSbdh(invoiceInput(example('base-example.xml'), { documentTypeId: CREDIT_NOTE_DOCUMENT_TYPE_ID })), 'SBDH-PAYLOAD', /CreditNote/);
      refused(() => wrapInSbdh(invoiceInput('<Invoice>')), 'SBDH-PAYLOAD', /XML-MALFORMED/);
      refused(() => wrapInSbdh(invoiceInput('<!DOCTYPE Invoice [<!ENTITY e "x">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&e;</Invoice>')), 'SBDH-PAYLOAD', /XML-DOCTYPE/);
    });

    it('refuses elements in no namespace that the envelope would capture', () => {
      const doc = '<inv:Invoice xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><Loose/></inv:Invoice>';
      refused(() => wrapInSbdh(invoiceInput(doc)), 'SBDH-PAYLOAD', /no namespace/);
    });
  });
});
