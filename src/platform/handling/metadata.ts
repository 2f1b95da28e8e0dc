import type { Actor } from '../../../commands/shared/actor.ts';
import type { EventMetadata } from '../eventstore/port.ts';

/** Metadata every event of one request carries: who, and which request caused it. */
export function requestMetadata(actor: Actor, requestId: string): EventMetadata {
  return {
    causationId: requestId,
    correlationId: requestId,
    actor: { type: actor.type, id: actor.id, organisationId: actor.organisationId },
  };
}
