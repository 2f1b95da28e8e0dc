import { createPrivateKey, type KeyObject, type X509Certificate } from 'node:crypto';
import { ConfigRefused, type PeppolIdentitySource } from '../../../../platform/config.ts';
import { commonNameOf, subjectOf } from './names.ts';
import { certificatesInPem, readConfiguredFile } from './pem.ts';
import { readPkcs12 } from './pkcs12.ts';

/** Our Access Point: the certificate peers see (AS4 signing, receipts, the SMP entry) and its key. */
export interface ApIdentity {
  certificate: X509Certificate;
  /** the certificate as PEM and DER (a BinarySecurityToken carries the DER, base64) */
  certificatePem: string;
  certificateDer: Buffer;
  privateKey: KeyObject;
  /** CA certificates that came with it (the PEM file's or the PKCS#12's others), issuer first; may be empty */
  chain: X509Certificate[];
  /** `CN=POP000123, O=…, C=SK` */
  subject: string;
  /** the seat id, AS4's From/To PartyId; undefined when the subject has no single CN */
  commonName: string | undefined;
}

/**
 * Loads the identity PEPPOL_NETWORK=as4 runs with: AS4_CERT + AS4_KEY (AS4_KEY_PASSPHRASE for an
 * encrypted key) or AS4_P12 + AS4_P12_PASSWORD. Refuses to start (ConfigRefused) when a file
 * cannot be read, the key cannot be decrypted, or the key is not the certificate's.
 */
export async function loadApIdentity(source: PeppolIdentitySource): Promise<ApIdentity> {
  const { certificates, privateKey, origin } = source.kind === 'pem' ? fromPem(source) : { ...(await fromP12(source)), origin: `AS4_P12 (${source.file})` };
  // the certificate is the one the key belongs to; the rest are its CAs
  const certificate = certificates.find((c) => !c.ca && c.checkPrivateKey(privateKey));
  if (!certificate) {
    throw new ConfigRefused(certificates.length === 0 ? `${origin} holds no certificate` : `${origin}: the private key does not belong to the certificate`);
  }
  return {
    certificate,
    certificatePem: certificate.toString(),
    certificateDer: certificate.raw,
    privateKey,
    chain: certificates.filter((c) => c !== certificate),
    subject: subjectOf(certificate),
    commonName: commonNameOf(certificate),
  };
}

function fromPem(source: Extract<PeppolIdentitySource, { kind: 'pem' }>): { certificates: X509Certificate[]; privateKey: KeyObject; origin: string } {
  const certificates = certificatesInPem('AS4_CERT', source.certFile, readConfiguredFile('AS4_CERT', source.certFile).toString('utf8'));
  if (certificates.length === 0) throw new ConfigRefused(`AS4_CERT (${source.certFile}) holds no PEM certificate`);
  const keyPem = readConfiguredFile('AS4_KEY', source.keyFile);
  // PKCS#8 `ENCRYPTED PRIVATE KEY`, or OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` header
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(keyPem.toString('latin1'));
  if (encrypted && source.keyPassphrase === undefined) throw new ConfigRefused(`AS4_KEY (${source.keyFile}) is encrypted: set AS4_KEY_PASSPHRASE`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: keyPem, format: 'pem', ...(source.keyPassphrase !== undefined ? { passphrase: source.keyPassphrase } : {}) });
  } catch {
    throw new ConfigRefused(source.keyPassphrase !== undefined
      ? `AS4_KEY (${source.keyFile}) cannot be read with AS4_KEY_PASSPHRASE (a wrong passphrase, or not a PEM private key)`
      : `AS4_KEY (${source.keyFile}) is not a PEM private key`);
  }
  if (privateKey.type !== 'private') throw new ConfigRefused(`AS4_KEY (${source.keyFile}) is not a private key`);
  return { certificates, privateKey, origin: `AS4_CERT (${source.certFile}) and AS4_KEY (${source.keyFile})` };
}

async function fromP12(source: Extract<PeppolIdentitySource, { kind: 'p12' }>): Promise<{ certificates: X509Certificate[]; privateKey: KeyObject }> {
  return readPkcs12(source.file, readConfiguredFile('AS4_P12', source.file), source.password);
}
