import { exportPKCS8, generateKeyPair } from 'jose';

let cached: Promise<string> | undefined;

/**
 * An RS256 signing key made in memory for one process (tests, benchmarks against Postgres, where
 * no key is configured): tokens it signs die with the process, which is what those runs want.
 */
export function ephemeralSigningKeyPem(): Promise<string> {
  return (cached ??= generateKeyPair('RS256', { modulusLength: 2048, extractable: true }).then(({ privateKey }) => exportPKCS8(privateKey)));
}
