import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PemConverter } from './x509.ts';
import { ConfigRefused } from '../../../../platform/config.ts';

/**
 * Reads a configured file, or refuses to start naming the variable and the path (never the content:
 * a key file's bytes are a secret).
 */
export function readConfiguredFile(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : 'unreadable';
    throw new ConfigRefused(`${variable}: cannot read ${file} (${code})`);
  }
}

/** Every CERTIFICATE block of a PEM text, in order (other blocks, such as keys, are left alone). */
export function certificatesInPem(variable: string, file: string, pem: string): X509Certificate[] {
  let blocks: ReturnType<typeof PemConverter.decodeWithHeaders>;
  try {
    blocks = PemConverter.decodeWithHeaders(pem).filter((block) => block.type === 'CERTIFICATE');
  } catch {
    throw new ConfigRefused(`${variable}: ${file} is not PEM`);
  }
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(Buffer.from(block.rawData));
    } catch {
      throw new ConfigRefused(`${variable}: certificate ${index + 1} in ${file} is not a valid X.509 certificate`);
    }
  });
}
