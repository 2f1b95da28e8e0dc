import type { ValidateFunction } from 'ajv';
import { locate, type InvoiceGroup } from '../../../commands/bulk-import/groups.ts';
import { InvoiceRuleViolation } from '../../../commands/invoices/rule-violation.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { isUnavailable } from '../../../commands/shared/error-codes.ts';
import { InvalidFields } from '../../../commands/shared/invalid-fields.ts';
import type { BulkImportRowError } from '../../../events/bulk-import.ts';
import type { CompanyRow } from '../../../projections/tenancy/rows.ts';
import { InvoiceRequest } from '../../../schemas/invoices.ts';
import { createInvoice, type InvoiceDeps } from '../invoices/index.ts';
import { countInvoice, releaseInvoiceCount, type UsageCounts } from '../usage/index.ts';
import type { Core } from '../../platform/core.ts';
import { WrongExpectedRevision, type Position } from '../../platform/eventstore/port.ts';
import { createBodyAjv } from '../../platform/http/ajv.ts';
import { toIssues } from '../../platform/http/issues.ts';
import { forbiddenTextIssues } from '../../platform/http/text.ts';
import { invoiceStream, type InvoiceCreated } from '../../../events/invoices.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { failureKind } from '../../platform/readmodel/failures.ts';

export type GroupDeps = InvoiceDeps & Pick<Core, 'readModels' | 'clock' | 'log'> & { usage: UsageCounts };

/** created: the invoice's id and number, and where its append is in the all-events order (null: created by an earlier run) */
export type GroupOutcome = { created: string; invoice_number: string; position: Position | null } | { errors: BulkImportRowError[] };

/** The number an invoice created before (by an earlier run of the job) was given, from its stream's first event. */
async function createdEarlier(deps: Pick<GroupDeps, 'store'>, invoiceId: string, events?: readonly { type: string; data: unknown }[]): Promise<GroupOutcome> {
  const stream = events ?? (await deps.store.readStream(invoiceStream(invoiceId)));
  const created = stream.find((e) => e.type === 'InvoiceCreated') as InvoiceCreated | undefined;
  return { created: invoiceId, invoice_number: created?.data.content.invoice_number ?? '', position: null };
}

// the invoice API's own body schema, compiled once: a row is refused exactly as the same JSON would be
let validateRequest: ValidateFunction | undefined;
const requestValidator = () => (validateRequest ??= createBodyAjv().compile(InvoiceRequest));

/** The request checks of `POST …/invoices` (schema and forbidden characters), as row errors. */
function requestErrors(group: InvoiceGroup): BulkImportRowError[] {
  const validate = requestValidator();
  const issues = [...forbiddenTextIssues('body', group.request, 50), ...(validate(group.request) ? [] : toIssues('body', validate.errors ?? [], group.request))];
  return issues.map((issue) => ({ ...locate(group, issue.loc), message: issue.msg }));
}

/** Where a domain refusal points (the code names the field), or the group's first row. */
const FIELD_OF_CODE: Record<string, string> = { invoice_number_conflict: 'invoice_number', customer_not_found: 'customer_id' };

function refusalErrors(group: InvoiceGroup, error: unknown): BulkImportRowError[] | null {
  if (error instanceof InvoiceRuleViolation) {
    return error.findings.filter((f) => f.severity === 'fatal').map((f) => ({ ...locate(group, f.field ?? []), message: `${f.rule}: ${f.message}` }));
  }
  if (error instanceof InvalidFields) return error.problems.map((p) => ({ ...locate(group, p.loc), message: p.msg }));
  if (error instanceof DomainError && !isUnavailable(error.code)) {
    const field = FIELD_OF_CODE[error.code];
    return [{ ...locate(group, field ? [field] : []), message: `${error.code}: ${error.message}` }];
  }
  return null;
}

interface GroupContext {
  actor: Actor;
  company: CompanyRow;
  jobId: string;
  /** a group of the first chunk after a (re)start may have been created before a crash: look first */
  lookFirst: boolean;
}

/**
 * Decides one invoice of the file: refused with its rows' errors, or created as a draft through
 * the very path `POST …/invoices` takes (schema, rules, numbering, the number's claim), counted
 * against the monthly quota once its content passed. One append writes the invoice with all its
 * lines, so it is there whole or not at all. Any other failure (the database) is thrown: the job
 * is retried from its last recorded progress.
 */
export async function decideGroup(deps: GroupDeps, context: GroupContext, group: InvoiceGroup): Promise<GroupOutcome> {
  if (group.errors.length > 0) return { errors: group.errors };
  const invalid = requestErrors(group);
  if (invalid.length > 0) return { errors: invalid };
  if (context.lookFirst) {
    const earlier = await deps.store.readStream(invoiceStream(group.invoiceId));
    if (earlier.length > 0) return createdEarlier(deps, group.invoiceId, earlier);
  }
  const metadata = requestMetadata(context.actor, `bulk-import:${context.jobId}`);
  let counted: { month: string } | null = null;
  // refused by a rule after it was counted (its number taken by hand: 409): never written, so not counted
  const refused = async (errors: BulkImportRowError[]): Promise<GroupOutcome> => {
    if (counted) await releaseInvoiceCount(deps, { organisationId: context.actor.organisationId, invoiceId: group.invoiceId, month: counted.month }, metadata);
    return { errors };
  };
  try {
    const created = await createInvoice(deps, {
      actor: context.actor, requestId: `bulk-import:${context.jobId}`, company: context.company, body: group.request as InvoiceRequest,
      invoiceId: group.invoiceId,
      beforeWrite: async () => {
        counted = await countInvoice(deps, { organisationId: context.actor.organisationId, invoiceId: group.invoiceId, source: 'api' }, metadata);
      },
    });
    return { created: group.invoiceId, invoice_number: created.event.data.content.invoice_number, position: created.position };
  } catch (error) {
    // the invoice's stream exists: this group was created before (a resumed chunk)
    if (error instanceof WrongExpectedRevision && error.streamId === invoiceStream(group.invoiceId)) return createdEarlier(deps, group.invoiceId);
    const errors = refusalErrors(group, error);
    if (errors) return refused(errors); // past the quota (402 usage_limit_exceeded) every remaining invoice is refused alike, each naming it
    // the database away, or the service not ready (a 5xx refusal): the job is retried from its last progress
    if (failureKind(error) === 'transient' || error instanceof DomainError) throw error;
    // a failure that would come back on every retry (a bug): this invoice gets a row error and the
    // job goes on, instead of being parked and staying `processing` for good
    deps.log.error({ err: error, job_id: context.jobId, invoice_ref: group.ref }, 'bulk import: an invoice could not be processed');
    return { errors: [{ ...locate(group, []), message: 'internal_error: this invoice could not be processed (logged for the operators); create it through POST …/invoices or import it again' }] };
  }
}
