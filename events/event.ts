/**
 * An event as deciders and the store's readers see it: a type and its data, nothing about storage.
 * Declared here, with the payloads, so that `events/` depends on nothing: its shapes are contracts.
 */
export interface DomainEvent<Type extends string = string, Data extends object = Record<string, unknown>> {
  type: Type;
  data: Data;
}
