import { invoiceFor, invoiceNotFound } from '../../../commands/invoices/access.ts';
import { invoiceDecider, type KnownInvoice } from '../../../commands/invoices/decider.ts';
import type { RuleFinding } from '../../../commands/invoices/model.ts';
import { checkInvoice } from '../../../commands/invoices/rules.ts';
import { validationFailure, validationPassed, type ValidationOutcome } from '../../../commands/invoices/validation.ts';
import type { RequestScope } from '../../../commands/shared/access.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { invoiceStream, invoiceValidationStream } from '../../../events/invoices.ts';
import type { RecordedEvent } from '../../platform/eventstore/port.ts';
import { appendToLog } from '../../platform/handling/append.ts';
import { handleCommand, toNewEvents } from '../../platform/handling/command-handler.ts';
import { foldRecorded } from '../../platform/handling/read-and-fold.ts';
import type { Core } from '../../platform/core.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import { buildUbl } from './ubl/index.ts';
import type { Finding, ValidationReport } from '../../platform/validation/index.ts';
import type { InvoiceDeps } from './invoices.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

export type LoadedInvoice = { state: KnownInvoice; events: RecordedEvent[]; version: number };

/**
 * The invoice from its own stream (not the read model): what validation, UBL and history work on.
 * `asOf` replays only the events recorded by then. Another organisation's or company's is not found.
 */
export async function loadInvoice(
  deps: Pick<Core, 'store'>,
  scope: RequestScope,
  invoiceId: string,
  asOf?: Date,
): Promise<LoadedInvoice> {
  const all = await deps.store.readStream(invoiceStream(invoiceId));
  const version = (events: RecordedEvent[]) => events[events.length - 1]?.revision ?? 0;
  const now = invoiceFor(foldRecorded(invoiceDecider, all), scope); // the one access rule, whatever as_of asks
  if (!asOf) return { state: now, events: all, version: version(all) };
  const events = all.filter((e) => e.recordedAt <= asOf);
  const then = foldRecorded(invoiceDecider, events);
  if (then.status === 'none') throw invoiceNotFound('the invoice did not exist yet at as_of');
  return { state: then, events, version: version(events) };
}

/** The UBL of the invoice: as received for an inbound copy, as the service builds it otherwise. */
export function invoiceUbl(invoice: LoadedInvoice): string {
  return invoice.state.received_ubl ?? buildUbl(invoice.state.content, invoice.state.totals);
}

const asRuleFinding = (f: Finding): RuleFinding & { location: string; source: string } => ({
  rule: f.rule, message: f.message, severity: f.flag, location: f.location, source: f.source,
});

/**
 * The validate route: business rules on the content, then XSD + CEN/Peppol + Slovak rules on the
 * UBL the service would send. The outcome goes to the decider, which makes a passing draft
 * validated (at the version that was checked: a change in between makes it 409, never a stale
 * validation); the answer reports the status the invoice has after it.
 */
export async function validateInvoice(
  deps: InvoiceDeps & { validator: ValidatorSource },
  request: { actor: Actor; requestId: string; companyId: string; invoiceId: string },
) {
  const scope = { organisationId: request.actor.organisationId, companyId: request.companyId };
  const invoice = await loadInvoice(deps, scope, request.invoiceId);
  const findings = checkInvoice(invoice.state.content, deps.codeLists);
  const now = deps.clock.now();
  // the rules in force now: those a send right after would be checked by
  const report: ValidationReport = await (await deps.validator()).validate(invoiceUbl(invoice), { at: now });
  const errors = findings.filter((f) => f.severity === 'fatal');
  const outcome: ValidationOutcome = {
    business_rules_valid: errors.length === 0, xsd_valid: report.xsd_valid, peppol_valid: report.peppol_valid, slovak_valid: report.slovak_valid,
  };
  const at = now.toISOString();
  const metadata = requestMetadata(request.actor, request.requestId);
  const { position, state } = await handleCommand(deps, invoiceStream(request.invoiceId), invoiceDecider, {
    type: 'RecordValidation', invoice_id: request.invoiceId, scope, validated_by: request.actor.id, outcome, at,
  }, { metadata, expected: { atRevision: invoice.version } });
  // a failure changes nothing on the invoice: it is recorded beside it, so the invoice's version stays
  const failure = validationFailure(invoice.state, {
    outcome, validated_by: request.actor.id, at,
    errors: [...errors.map((f) => ({ rule: f.rule, message: f.message, location: f.field ?? null })), ...report.errors.map((f) => ({ rule: f.rule, message: f.message, location: f.location }))],
  });
  if (failure) await appendToLog(deps.store, invoiceValidationStream(request.invoiceId), toNewEvents(deps, [failure], metadata));
  const response = {
    valid: validationPassed(outcome),
    errors,
    warnings: findings.filter((f) => f.severity === 'warning'),
    xml_validation: {
      release: report.release,
      xsd_valid: report.xsd_valid,
      peppol_valid: report.peppol_valid,
      slovak_valid: report.slovak_valid,
      errors: report.errors.map(asRuleFinding),
      warnings: report.warnings.map(asRuleFinding),
    },
    schemas_available: report.schemas_available,
    status: state.status,
  };
  return { response, position };
}
