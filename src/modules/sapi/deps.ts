import type { InvoicingDeps } from '../invoices/index.ts';
import type { UsageCounts } from '../usage/index.ts';
import type { Credentials } from '../identity/index.ts';
import type { SigningKeys } from '../identity/index.ts';
import type { Limits } from '../../platform/limits/limits.ts';
import type { FsAuthority } from '../delivery/index.ts';
import type { PeppolNetwork } from '../delivery/index.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';

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
  /** our Access Point's SPIS participant: the MLS we ask for come to it */
  ourSpis: string;
  /** the only process on the database (PGlite): the scheduled work's stale leases are released at start */
  soleInstance?: boolean;
};
