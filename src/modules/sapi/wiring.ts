import type { SapiDeps } from './deps.ts';
import { sapiAuthPart } from './auth/part.ts';
import { sapiInboxPart } from './inbox/part.ts';
import { sapiOutboundPart } from './outbound/part.ts';
import type { Module } from '../module.ts';

export type { SapiDeps } from './deps.ts';

/**
 * The SAPI-SK connector: a second front door under /sapi (its routes, callers and error
 * envelope), the native routes that install and manage it, and its read models and reactors.
 */
export function sapiModule(deps: SapiDeps): Module {
  const parts = [sapiAuthPart(deps), sapiOutboundPart(deps), sapiInboxPart(deps)];
  return {
    routes: parts.flatMap((p) => p.routes ?? []),
    projectors: parts.flatMap((p) => p.projectors ?? []),
    reactors: parts.flatMap((p) => p.reactors ?? []),
    entities: parts.flatMap((p) => p.entities ?? []),
    migrations: parts.flatMap((p) => p.migrations ?? []),
    workers: parts.flatMap((p) => p.workers ?? []),
    sapi: { routes: parts.flatMap((p) => p.sapiRoutes ?? []), gate: parts.find((p) => p.gate)?.gate },
  };
}
