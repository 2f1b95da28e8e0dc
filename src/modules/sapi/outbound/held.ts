import { sapiDocumentDecider, type SapiDocumentState } from '../../../../commands/sapi/document.ts';
import { sapiDocumentStream, type SapiDocumentAccepted } from '../../../../events/sapi-documents.ts';
import type { EventStore } from '../../../platform/eventstore/port.ts';
import type { Handled, Known } from '../../../platform/handling/command-handler.ts';
import { heldPerStore } from '../../../platform/handling/held-states.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';

type Accepted = SapiDocumentAccepted['data'];

/**
 * A SAPI-SK document's stream as its last writer in this process left it, with its accepted event
 * (the payload lives only there): the send, the Peppol step, the filing step and both MLS decide on
 * it in turn, and each read the whole stream, payload and all, before (four reads per send). A
 * document whose legs are done is let go. Bounds: a few hundred documents in flight, 32 MB of payloads.
 */
const heldOf = heldPerStore<SapiDocumentState, Accepted>({ entries: 1000, bytes: 32 * 1024 * 1024 });

const done = (state: SapiDocumentState) =>
  !!state && (state.fs.status === 'ACKNOWLEDGED' || state.fs.status === 'FAILED') && (state.status === 'FAILED' || !!state.mls);

export interface LoadedDocument extends Known<SapiDocumentState> {
  accepted: Accepted | null;
}

/** The document's state and accepted event: as held, else read from its stream (and held from then on). */
export async function loadDocument(store: EventStore, documentId: string): Promise<LoadedDocument> {
  const stream = sapiDocumentStream(documentId);
  const held = heldOf(store).get(stream);
  if (held) return { state: held.state, revision: held.revision, accepted: held.extra };
  const folded = await readAndFold(store, stream, sapiDocumentDecider);
  const first = folded.events[0];
  const accepted = first?.type === 'SapiDocumentAccepted' ? (first.data as Accepted) : null;
  if (accepted) keepDocument(store, documentId, folded, accepted);
  return { state: folded.state, revision: folded.revision, accepted };
}

/** Holds the document's state as a write or a read left it, with its accepted event. */
export function keepDocument(store: EventStore, documentId: string, known: Known<SapiDocumentState>, accepted: Accepted): void {
  const stream = sapiDocumentStream(documentId);
  if (done(known.state)) heldOf(store).drop(stream);
  else heldOf(store).keep(stream, known, accepted, accepted.payload.length * 2);
}

/** What a command left: the held state moves on (when held), or goes once the document's legs are done. */
export function documentWritten(store: EventStore, documentId: string, handled: Pick<Handled<unknown, SapiDocumentState>, 'state' | 'version'>): void {
  const stream = sapiDocumentStream(documentId);
  if (done(handled.state)) heldOf(store).drop(stream);
  else heldOf(store).advance(stream, { state: handled.state, revision: handled.version });
}

/** The held state to decide a command on (OnKnown), if any. */
export function heldDocument(store: EventStore, documentId: string): Known<SapiDocumentState> | undefined {
  const held = heldOf(store).get(sapiDocumentStream(documentId));
  return held ? { state: held.state, revision: held.revision } : undefined;
}
