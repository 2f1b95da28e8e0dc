// The delivery module's door: what other modules, the front doors and the composition root may use of it.
export { type FsAuthority, FsTransportError, type FsVerdict } from './fs/fs-authority.ts';
export { buildTdd, TddBuildError } from './fs/tax-data-document/index.ts';
export { receivePeppolMessage } from './inbound.ts';
export { BILLING_PROCESS_ID, documentTypeFor } from './peppol/identifiers.ts';
export { type PeppolNetwork, type PeppolReceipt, PeppolRefusedError, PeppolRejectedError, PeppolTransportError } from './peppol/peppol-network.ts';
export { as4PeppolNetwork, as4MessageIdOf } from './peppol/as4-network.ts';
export { as4Receiver, type As4Receiver, type As4Answer } from './peppol/as4-receive.ts';
export { boundedFetch, distrustOf, loadPeppolPki, peppolHealth, type PeppolHealth, type PeppolPki, type RevocationFetch } from './peppol/pki/index.ts';
export { wrapInSbdh } from './peppol/sbdh.ts';
export { type CheckCertificate } from './peppol/certificate-check.ts';
export { loadStaticEndpoints, peppolDiscovery, type PeppolDiscovery } from './peppol/smp/index.ts';
export { askFsVerdict } from './schedule/ask-fs-verdict.ts';
export { bounded as boundedAttempt } from './schedule/bounded.ts';
export { TAX_AUTHORITY } from './schedule/fs-filings.ts';
export { currentInvoice } from './reactors/load.ts';
export { sandboxParticipantDirectory } from './sandbox/directory.ts';
export { checkSandboxRules, sandbox } from './sandbox/index.ts';
export type { ReceiveMessage } from './sandbox/peppol.ts';
