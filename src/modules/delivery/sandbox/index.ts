import type { DataSource } from 'typeorm';
import type { DeliveryConfig } from '../../../platform/config.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { OPENPEPPOL_REPORTING_RECEIVER } from '../peppol/identifiers.ts';
import { FS_SANDBOX_RULES, sandboxFs, type FsSandbox, type FsSandboxRule } from './fs.ts';
import { sandboxPeppolNetwork, type PeppolSandbox, type ReceiveMessage } from './peppol.ts';

/** The sandbox's Peppol network and FS, with their fault switches (tests turn them). */
export interface Sandbox {
  peppol: PeppolSandbox;
  fs: FsSandbox;
}

/** FS_SANDBOX_REJECT_RULES names rules the sandbox knows, or the service does not start. */
export function checkSandboxRules(rules: readonly string[]): FsSandboxRule[] {
  const unknown = rules.filter((r) => !(r in FS_SANDBOX_RULES));
  if (unknown.length > 0) throw new Error(`FS_SANDBOX_REJECT_RULES: unknown rule ${unknown.join(', ')} (known: ${Object.keys(FS_SANDBOX_RULES).join(', ')})`);
  return rules as FsSandboxRule[];
}

/** The closed loop the service runs when no real network is configured (the only one built so far). */
export function sandbox(
  deps: { readModels: DataSource; clock: Clock }, delivery: Pick<DeliveryConfig, 'fsSandboxDelayMs' | 'reporting'>, rules: readonly FsSandboxRule[], receive: ReceiveMessage,
  ourSpis: string | null = null,
): Sandbox {
  const now = () => deps.clock.now();
  return {
    peppol: sandboxPeppolNetwork(deps.readModels, receive, now, ourSpis, delivery.reporting.receiver ?? OPENPEPPOL_REPORTING_RECEIVER),
    fs: sandboxFs(deps.readModels, { delayMs: delivery.fsSandboxDelayMs, rules }, now),
  };
}
