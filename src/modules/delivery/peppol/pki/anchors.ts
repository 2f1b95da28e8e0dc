import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PeppolStage } from '../../../../platform/config.ts';
import type { CertificatePurpose } from './verdict.ts';

/**
 * The Peppol CA certificates shipped with the service (anchors/README.md: where from, fingerprints):
 * the default trust under PEPPOL_NETWORK=as4 when PEPPOL_AP_TRUST or PEPPOL_SMP_TRUST is unset.
 * Each bundle holds one issuing CA and its root, so an SMP's certificate can never pass as an
 * Access Point's.
 */
export function shippedAnchorsFile(stage: PeppolStage, purpose: CertificatePurpose): string {
  return path.join(anchorsDir(), stage, `${purpose}.pem`);
}

/** Where a trust came from: the operator's file, or the shipped CAs of a stage (`peppol-test`, `peppol-production`). */
export type TrustSource = { kind: 'file'; name: 'file' } | { kind: 'shipped'; name: `peppol-${PeppolStage}` };

export const trustSourceOf = (file: string | undefined, stage: PeppolStage): TrustSource =>
  file ? { kind: 'file', name: 'file' } : { kind: 'shipped', name: `peppol-${stage}` };

/**
 * The PEM files live beside this module in the source tree. `npm run build` compiles only
 * TypeScript, so the compiled module (dist/src/…) reads them from the same place under src/,
 * which the image carries (Dockerfile: COPY . .).
 */
function anchorsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = `${path.sep}dist${path.sep}src${path.sep}`;
  const at = here.lastIndexOf(compiled);
  const source = at < 0 ? here : `${here.slice(0, at)}${path.sep}src${path.sep}${here.slice(at + compiled.length)}`;
  return path.join(source, 'anchors');
}
