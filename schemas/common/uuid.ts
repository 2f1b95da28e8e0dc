import { Type } from '@sinclair/typebox';

/** A UUID in its canonical textual form; resource identifiers are UUIDs unless stated. */
export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
