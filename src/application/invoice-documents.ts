import { invoiceDecider, type InvoiceState } from '../../commands/invoices/decider.ts';
import type { RuleFinding } from '../../commands/invoices/model.ts';
import { checkInvoice } from '../../commands/invoices/rules.ts';
import type { Actor } from '../../commands/shared/actor.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { invoiceStream } from '../../events/invoices.ts';
import type { Position, RecordedEvent } from '../eventstore/port.ts';
import { handleCommand } from '../handling/command-handler.ts';
import { foldRecorded } from '../handling/read-and-fold.ts';
import type { Core } from '../core.ts';
import type { ValidatorSource } from '../validation/index.ts';
import { buildUbl } from '../ubl/index.ts';
import type { Finding, ValidationReport } from '../validation/index.ts';
import type { InvoiceDeps } from './invoices.ts';
import { requestMetadata } from './metadata.ts';

export type LoadedInvoice = { state: Exclude<InvoiceState, { status: 'none' }>; events: RecordedEvent[]; version: number };

/**
 * The invoice from its own stream (not the read model): what validation, UBL and history work on.
 * `asOf` replays only the events recorded by then. Another organisation's or company's is not found.
 */
export async function loadInvoice(
  deps: Pick<Core, 'store'>,
  scope: { organisationId: string; companyId: string | null },
  invoiceId: string,
  asOf?: Date,
): Promise<LoadedInvoice> {
  const all = await deps.store.readStream(invoiceStream(invoiceId));
  const events = asOf ? all.filter((e) => e.recordedAt <= asOf) : all;
  const state = foldRecorded(invoiceDecider, events);
  const visible = state.status !== 'none' && state.organisation_id === scope.organisationId && (!scope.companyId || state.company_id === scope.companyId);
  if (!visible || all.length === 0) {
    throw new DomainError('invoice_not_found', 404, asOf && all.length > 0 ? 'the invoice did not exist yet at as_of' : 'invoice not found');
  }
  return { state: state as LoadedInvoice['state'], events, version: events[events.length - 1]?.revision ?? 0 };
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
 * UBL the service would send. When everything passes, a draft becomes validated (at the version
 * that was checked: a change in between makes it 412, never a stale validation).
 */
export async function validateInvoice(
  deps: InvoiceDeps & { validator: ValidatorSource },
  request: { actor: Actor; requestId: string; companyId: string; invoiceId: string },
) {
  const invoice = await loadInvoice(deps, { organisationId: request.actor.organisationId, companyId: request.companyId }, request.invoiceId);
  const findings = checkInvoice(invoice.state.content, deps.codeLists);
  const report: ValidationReport = await (await deps.validator()).validate(invoiceUbl(invoice));
  const errors = findings.filter((f) => f.severity === 'fatal');
  const valid = errors.length === 0 && report.xsd_valid === true && report.peppol_valid === true && report.slovak_valid === true;
  let status = invoice.state.status;
  let position: Position | null = null;
  if (valid && status === 'draft') {
    ({ position } = await handleCommand(deps, invoiceStream(request.invoiceId), invoiceDecider, {
      type: 'MarkValidated', invoice_id: request.invoiceId, organisation_id: request.actor.organisationId,
      validated_by: request.actor.id, at: deps.clock.now().toISOString(),
    }, { metadata: requestMetadata(request.actor, request.requestId), expectedVersion: invoice.version }));
    status = 'validated';
  }
  const response = {
    valid,
    errors,
    warnings: findings.filter((f) => f.severity === 'warning'),
    xml_validation: {
      xsd_valid: report.xsd_valid,
      peppol_valid: report.peppol_valid,
      slovak_valid: report.slovak_valid,
      errors: report.errors.map(asRuleFinding),
      warnings: report.warnings.map(asRuleFinding),
    },
    schemas_available: report.schemas_available,
    status,
  };
  return { response, position };
}
