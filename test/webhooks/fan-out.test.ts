import { expect } from 'chai';
import type { EventStore, RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { webhookFanOutReactor } from '../../src/modules/webhooks/fan-out.ts';
import type { QueuedDelivery, WebhookQueue } from '../../src/modules/webhooks/queue/store.ts';
import { record, type Step } from './events/stories.ts';

const ORGANISATION = '880cfc62-c591-4fc0-b901-6d004d156bda'; // the credit-note fixture's
const HOOKS = `webhooks-${ORGANISATION}`;
const ENDPOINT = 'b6a4f2e1-3c5d-4e7f-8a9b-0c1d2e3f4a5b'; // the webhook fixtures'

const creditNote = (n: number): Step => {
  const id = `7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c${String(n).padStart(2, '0')}`;
  return { type: 'CreditNoteCreated', stream: `invoice-${id}`, data: { credit_note_id: id } };
};
const registered: Step = { type: 'WebhookEndpointRegistered', stream: HOOKS, data: { organisation_id: ORGANISATION, events: ['invoice.created'] } };
const rotated: Step = { type: 'WebhookSecretRotated', stream: HOOKS };
const deactivated: Step = { type: 'WebhookEndpointDeactivated', stream: HOOKS };

/** The fan-out over a store of recorded events; `run` does with a batch what the reactor runner does. */
function fanOut() {
  const stored: RecordedEvent[] = [];
  const reads: string[] = [];
  const queued: QueuedDelivery[] = [];
  const store = {
    readStream: async (id: string) => {
      reads.push(id);
      return stored.filter((e) => e.streamId === id);
    },
  };
  const reactor = webhookFanOutReactor({
    store: store as unknown as EventStore,
    clock: { now: () => new Date('2026-11-24T12:00:00Z') },
    queue: { enqueue: async (rows: readonly QueuedDelivery[]) => void queued.push(...rows) } as unknown as WebhookQueue,
    queued: () => undefined,
  });
  const signal = new AbortController().signal;
  return {
    reads, queued, reactor, stored,
    /** stored first, shown to observe, then reacted to one by one */
    async run(batch: readonly RecordedEvent[]) {
      stored.push(...batch);
      reactor.observe?.(batch);
      for (const event of batch) await reactor.react(event, signal);
    },
  };
}

describe('webhook fan-out: who is subscribed, kept from the webhooks stream', () => {
  it('an organisation without an active endpoint: its source events read no invoice, and its webhooks stream only once', async () => {
    const events = record('no-endpoint', [creditNote(1), creditNote(2), creditNote(3)]);
    const f = fanOut();
    await f.run(events.slice(0, 1));
    await f.run(events.slice(1));
    expect(f.reads).to.deep.equal([HOOKS]);
    expect(f.queued).to.deep.equal([]);
  });

  it('an endpoint registered before a source event, in an earlier batch or the same one, receives it; once deactivated, no more', async () => {
    const [first, registration, second, third, deactivation, fourth] = record('registered', [creditNote(1), registered, creditNote(2), creditNote(3), deactivated, creditNote(4)]);
    const f = fanOut();
    await f.run([first!]);
    await f.run([registration!, second!]);
    await f.run([third!]);
    await f.run([deactivation!, fourth!]);
    expect(f.queued.map((q) => [q.endpoint_id, q.event_type])).to.deep.equal([[ENDPOINT, 'invoice.created'], [ENDPOINT, 'invoice.created']]);
    // the webhooks stream once, then only the invoices of the events with someone to receive them
    expect(f.reads).to.deep.equal([HOOKS, second!.streamId, third!.streamId]);
  });

  it('a webhooks-stream event it was never shown (a revision gap) makes it read the stream again', async () => {
    const [first, registration, rotation, second] = record('gap', [creditNote(1), registered, rotated, creditNote(2)]);
    const f = fanOut();
    await f.run([first!]);
    f.stored.push(registration!); // written, never shown
    await f.run([rotation!, second!]);
    expect(f.queued.map((q) => q.endpoint_id)).to.deep.equal([ENDPOINT]);
    expect(f.reads.filter((r) => r === HOOKS)).to.have.length(2);
  });

  it('a source event it was not shown (a reaction outside the runner) reads the endpoints afresh', async () => {
    const [first, registration, second] = record('unshown', [creditNote(1), registered, creditNote(2)]);
    const f = fanOut();
    await f.run([first!]);
    f.stored.push(registration!, second!);
    await f.reactor.react(second!, new AbortController().signal);
    expect(f.queued.map((q) => q.endpoint_id)).to.deep.equal([ENDPOINT]);
  });
});
