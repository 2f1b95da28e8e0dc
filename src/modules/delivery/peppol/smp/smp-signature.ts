/**
 * The XML signature of an SMP's SignedServiceMetadata (Peppol SMP 1.x): enveloped, over the whole
 * document, checked by the platform's verifier (src/platform/xml/enveloped-signature.ts, xml-crypto
 * over @xmldom/xmldom) with its guards against signature wrapping. The caller reads `signedXml`,
 * the XML the signature covers, and has the PKI judge `certificate` as an SMP certificate.
 */
import { verifyEnvelopedSignature, type EnvelopedSignatureCheck } from '../../../../platform/xml/index.ts';

const SIGNED_SERVICE_METADATA = { namespace: 'http://busdox.org/serviceMetadata/publishing/1.0/', localName: 'SignedServiceMetadata' };

/** `xml` has already passed the hardened parser (smp-xml.ts). */
export function verifySmpSignature(xml: string): EnvelopedSignatureCheck {
  return verifyEnvelopedSignature(xml, SIGNED_SERVICE_METADATA);
}
