/**
 * Our signatures checked by another implementation: xml-crypto (its own exclusive C14N on
 * xmldom) verifies a receipt we sign, references and signature value, so our canonical forms are
 * not a dialect of our own. (xml-crypto cannot check a UserMessage: it cannot resolve the
 * attachment's cid: reference.) Our SOAP prefix is lower-case `env` on purpose: xml-crypto sorts
 * namespace declarations with localeCompare, not by code point as C14N requires, so with phase4's
 * `S12` beside `eb` its canonical form differs from libxml2's and Santuario's.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SignedXml } from 'xml-crypto';
import { buildReceipt } from '../../../src/modules/delivery/peppol/as4/index.ts';
import { testAp, testCa } from './test-certificates.ts';

describe('AS4 receipt signature, verified by xml-crypto', function () {
  this.timeout(30_000);

  it('verifies the references and the signature value we wrote', async () => {
    const ca = await testCa('Independent check CA');
    const b = await testAp(ca, 'PSK000002');
    const receipt = buildReceipt(
      {
        messageId: `${randomUUID()}@b`,
        timestamp: new Date(),
        refToMessageId: 'm@a',
        references: [{ uri: '#x', transforms: ['http://www.w3.org/2001/10/xml-exc-c14n#'], digestMethod: 'http://www.w3.org/2001/04/xmlenc#sha256', digestValue: 'AAAA' }],
      },
      { signingKey: b.key, signingCert: b.cert },
    );
    const xml = receipt.body.toString('utf8');
    // the ds:Signature alone, with the wsse prefix its KeyInfo inherits declared on it
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)?.[0];
    if (!signature) throw new Error('no signature');
    const standalone = signature.replace('<ds:Signature ', '<ds:Signature xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" ');
    const verifier = new SignedXml({ publicCert: b.cert.toString(), getCertFromKeyInfo: () => null });
    verifier.loadSignature(standalone);
    expect(verifier.checkSignature(xml)).to.equal(true);
    expect(verifier.getSignedReferences()).to.have.length(2);

    const tampered = xml.replace('m@a', 'n@a');
    const again = new SignedXml({ publicCert: b.cert.toString(), getCertFromKeyInfo: () => null });
    again.loadSignature(standalone);
    expect(again.checkSignature(tampered)).to.equal(false);
  });
});
