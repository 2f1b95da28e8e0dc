import type { InvoicingDeps } from '../application/invoices.ts';
import type { UsageCounts } from '../application/usage.ts';
import type { Credentials } from '../identity/credentials.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import type { Limits } from '../limits/limits.ts';
import type { FsAuthority } from '../network/fs-authority.ts';
import type { PeppolNetwork } from '../network/peppol-network.ts';
import type { ValidatorSource } from '../validation/index.ts';

/**
 * What the SAPI-SK connector uses of the service: the core and invoicing adapters, the validator,
 * the Peppol network and FS, the monthly counter it shares with the native API, the signing keys
 * its tokens are signed with, and the limits.
 */
export type SapiDeps = InvoicingDeps & {
  validator: ValidatorSource;
  network: PeppolNetwork;
  fs: FsAuthority;
  usage: UsageCounts;
  identity: SigningKeys;
  limits: Limits;
  auth: Credentials;
};
