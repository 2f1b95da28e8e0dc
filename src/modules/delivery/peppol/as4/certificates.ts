/**
 * The certificate facts an AS4 message carries: the CN (the Peppol AP's PartyId), the DER as a
 * BinarySecurityToken, issuer and serial number (ds:X509IssuerSerial). Node's X509Certificate
 * holds the certificate; pkijs reads its names (@peculiar/x509 would need reflect-metadata loaded
 * first, which the service does not do). No trust decision is made here: the caller's trust check
 * does that, with the PKI module.
 */
import { X509Certificate } from 'node:crypto';
import { Certificate, type RelativeDistinguishedNames } from 'pkijs';

/** RFC 4514 short names of the attribute types a Peppol CA or AP name uses; others are written as OIDs. */
const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.5': 'SERIALNUMBER',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

// A certificate object is immutable and the same one signs every message we send: parsing its DER
// with pkijs on each call was a fifth of the CPU of a small message's round trip (bench as4)
const parsedNames = new WeakMap<X509Certificate, Certificate>();
function parsed(cert: X509Certificate): Certificate {
  let names = parsedNames.get(cert);
  if (!names) parsedNames.set(cert, (names = Certificate.fromBER(cert.raw)));
  return names;
}

function values(name: RelativeDistinguishedNames): { type: string; value: string }[] {
  return name.typesAndValues.map((tv) => ({ type: tv.type, value: String((tv.value.valueBlock as { value?: unknown }).value ?? '') }));
}

export function commonName(cert: X509Certificate): string {
  const cns = values(parsed(cert).subject).filter((tv) => tv.type === '2.5.4.3');
  if (cns.length !== 1 || !cns[0]?.value) throw new Error(`the certificate ${cert.subject.replace(/\n/g, ', ')} must have exactly one CN`);
  return cns[0].value;
}

export const tokenOf = (cert: X509Certificate) => cert.raw.toString('base64');

/** A token's (or ds:X509Certificate's) base64 text as octets. */
export const tokenBytes = (base64: string): Buffer => Buffer.from(base64.replace(/\s+/g, ''), 'base64');

/** A certificate from its DER octets; null when they are not one. */
export function certificateFromDer(der: Buffer): X509Certificate | null {
  try {
    return new X509Certificate(der);
  } catch {
    return null;
  }
}

// RFC 4514 2.4: the characters escaped in a value
const escapeValue = (value: string) =>
  value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');

/** The issuer as an RFC 4514 string (last RDN first), as ds:X509IssuerName carries it. */
export function issuerName(cert: X509Certificate): string {
  return values(parsed(cert).issuer)
    .reverse()
    .map(({ type, value }) => `${SHORT_NAMES[type] ?? type}=${escapeValue(value)}`)
    .join(',');
}

/** The serial number as a decimal integer, as ds:X509SerialNumber carries it. */
export const serialDecimal = (cert: X509Certificate) => BigInt(`0x${cert.serialNumber}`).toString(10);

/**
 * Whether an X509IssuerSerial may name this certificate. The serial number decides (compared as a
 * number); the issuer's text does not: writers spell a DN differently (Java writes `CN=x,O=y` and
 * hex for some attribute types, others `CN=x, O=y`), and a wrong certificate's key fails to
 * unwrap anyway, so refusing on spelling would only turn away a message meant for us.
 */
export function issuerSerialNames(cert: X509Certificate, serial: string): boolean {
  const number = serial.trim();
  return /^\d+$/.test(number) && BigInt(number) === BigInt(`0x${cert.serialNumber}`);
}
