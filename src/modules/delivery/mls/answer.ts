import { mlsOwed, mlsReceiver, type MlsType, type MlsVerdict } from '../../../../commands/mls/answer.ts';
import { mlsIssuedDecider, mlsIssuedStream, type MlsIssuedCommand, type MlsIssuedState } from '../../../../commands/mls/issued.ts';
import { stableUuid } from '../../../../commands/shared/stable-id.ts';
import type { Core } from '../../../platform/core.ts';
import type { EventMetadata } from '../../../platform/eventstore/port.ts';
import type { Write } from '../../../platform/handling/append.ts';
import { toNewEvents } from '../../../platform/handling/command-handler.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';
import { buildMls } from '../../mls/index.ts';

/** The received business document being answered: what its envelope said. */
export interface AnsweredDocument {
  instanceId: string;
  documentTypeId: string;
  sender: string;
  receiver: string;
  /** the envelope's MLS_TO and MLS_TYPE (null: absent or invalid) */
  mlsTo: string | null;
  mlsType: MlsType | null;
}

export interface Answering {
  /** our Access Point's SPIS participant (`0242:` + the seat id's digits): the MLS's sender */
  ourSpis: string;
  /** the sending Access Point's SPIS participant, from its certificate's seat id; null when it has none */
  senderSpis: string | null;
}

/**
 * Corner 3's answer to a received document as the command on its MLS stream: the verdict, and the
 * MLS document when one is owed and can be addressed. The MLS id is derived from the answered
 * document, so deciding again (a race, a repeat) builds the same one.
 */
export function issueCommand(document: AnsweredDocument, verdict: MlsVerdict, answering: Answering, at: Date): MlsIssuedCommand {
  const to = mlsReceiver(document.mlsTo, answering.senderSpis);
  const mlsId = stableUuid('mls', answering.ourSpis, document.instanceId);
  const built = (receiver: string) => buildMls({
    id: mlsId, issued_at: at.toISOString(), sender: answering.ourSpis, receiver, response_code: verdict.response_code,
    description: verdict.description, referenced_instance_id: document.instanceId, issues: verdict.issues,
  });
  const fallback = to && answering.senderSpis && to !== answering.senderSpis ? answering.senderSpis : null;
  const mls = mlsOwed(verdict.response_code, document.mlsType) && to
    ? { mls_id: mlsId, from: answering.ourSpis, to, document: built(to), fallback: fallback ? { to: fallback, document: built(fallback) } : null }
    : null;
  return {
    type: 'IssueMls', referenced_instance_id: document.instanceId, document_type_id: document.documentTypeId,
    sender_participant_id: document.sender, receiver_participant_id: document.receiver, response_code: verdict.response_code,
    description: verdict.description, issues: verdict.issues, mls, at: at.toISOString(),
  };
}

/**
 * The write that records the answer, decided on the MLS stream as it is now; null when it was
 * answered before. `firstAnswer`: the caller takes this for the document's first answer (a first
 * receipt), so the stream is not read: the answer is decided on no stream and written as its
 * start, and should one be there after all, that write conflicts and the caller's retry reads it.
 */
export async function answerWrite(deps: Pick<Core, 'store' | 'ids'>, command: MlsIssuedCommand, metadata: EventMetadata, firstAnswer = false): Promise<AnswerWrite | null> {
  const streamId = mlsIssuedStream(command.type === 'IssueMls' ? command.referenced_instance_id : '');
  const { state, revision } = firstAnswer ? { state: mlsIssuedDecider.initialState, revision: -1 } : await readAndFold(deps.store, streamId, mlsIssuedDecider);
  const events = mlsIssuedDecider.decide(command, state);
  return events.length === 0 ? null : { streamId, events: toNewEvents(deps, events, metadata), at: { revision }, after: events.reduce(mlsIssuedDecider.evolve, state) };
}

/** The answer's write, and the state it leaves (held for its send attempt once written: keepIssuedMls). */
export type AnswerWrite = Write & { after: MlsIssuedState };
