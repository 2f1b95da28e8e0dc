import type { DataSource } from 'typeorm';
import type { DeliveryConfig } from '../../../platform/config.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import { FS_SANDBOX_RULES, sandboxCorner5, type FsSandboxRule, type SandboxCorner5 } from './corner5.ts';
import { OPENPEPPOL_REPORTING_RECEIVER } from '../peppol/identifiers.ts';
import { sandboxPeppolNetwork, type PeppolSandbox, type ReceiveMessage } from './peppol.ts';

/** The sandbox's Peppol network and the Financial Administration's corner 5, with their fault switches (tests turn them). */
export interface Sandbox {
  peppol: PeppolSandbox;
  fs: SandboxCorner5;
}

/** FS_SANDBOX_REJECT_RULES names rules the sandbox knows, or the service does not start. */
export function checkSandboxRules(rules: readonly string[]): FsSandboxRule[] {
  const unknown = rules.filter((r) => !(r in FS_SANDBOX_RULES));
  if (unknown.length > 0) throw new Error(`FS_SANDBOX_REJECT_RULES: unknown rule ${unknown.join(', ')} (known: ${Object.keys(FS_SANDBOX_RULES).join(', ')})`);
  return rules as FsSandboxRule[];
}

/**
 * The closed loop the service runs when no real network is configured: a Peppol network that
 * reaches this service's companies, our own MLS address and corner 5 (FS_PARTICIPANT_ID), whose
 * messages our receiving side takes, and stands in for the Peppol Reporting receiver.
 */
export function sandbox(
  deps: { readModels: DataSource; clock: Clock }, delivery: Pick<DeliveryConfig, 'fsParticipantId' | 'reporting'>, rules: readonly FsSandboxRule[], receive: ReceiveMessage,
  ourSpis: string | null = null,
): Sandbox {
  const now = () => deps.clock.now();
  const fs = sandboxCorner5(deps.readModels, { rules }, now);
  return {
    peppol: sandboxPeppolNetwork(deps.readModels, receive, now, {
      ourSpis, corner5: { participant: delivery.fsParticipantId, faults: fs.faults }, reportingReceiver: delivery.reporting.receiver ?? OPENPEPPOL_REPORTING_RECEIVER,
    }),
    fs,
  };
}
