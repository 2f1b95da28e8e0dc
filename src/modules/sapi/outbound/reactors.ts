import type { SapiDocumentAccepted, SapiDocumentSent, SapiFsSubmitted } from '../../../../events/sapi-documents.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';
import type { Scheduled } from '../../../platform/schedule/index.ts';
import { sapiFsFiling, sapiFsVerdict, sapiPeppolAttempt } from './schedule.ts';

type Scheduling = { schedule(rows: Scheduled[]): Promise<void>; now(): Date };

/**
 * The SAPI-SK legs start: the reactions only schedule (schedule.ts makes each step when due, as
 * native delivery does), so none of them waits on a receiver or on FS, and a repeat after a crash
 * schedules again while the step reads the stream to see what is left.
 */
export function sapiPeppolReactor(deps: Scheduling): Reactor {
  return defineReactor<SapiDocumentAccepted>({
    name: 'sapi-peppol-delivery',
    handles: ['SapiDocumentAccepted'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([sapiPeppolAttempt(event.data.document_id, event.data.metadata.receiver_participant_id, deps.now(), event.id)]);
    },
  });
}

/** The FS leg once the document is SENT (reporter role C2): its filing is due now; the TDD's UUID derives from this event. */
export function sapiFsFilingReactor(deps: Scheduling): Reactor {
  return defineReactor<SapiDocumentSent>({
    name: 'sapi-fs-filing',
    handles: ['SapiDocumentSent'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([sapiFsFiling(event.data.document_id, deps.now(), event.id)]);
    },
  });
}

/** A filed TDD: its verdict's deadline is kept (the verdict is corner 5's MLS, src/modules/sapi/outbound/fs-mls.ts). */
export function sapiFsVerdictReactor(deps: Scheduling & { deadlineMs: number }): Reactor {
  return defineReactor<SapiFsSubmitted>({
    name: 'sapi-fs-verdicts',
    handles: ['SapiFsSubmitted'],
    concurrency: 8,
    async react(event) {
      await deps.schedule([sapiFsVerdict(event.data.document_id, new Date(Date.parse(event.data.submitted_at) + deps.deadlineMs), event.id)]);
    },
  });
}
