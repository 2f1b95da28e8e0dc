// The one XML writer. xmlbuilder2's create() and fragment() also accept XML text, which they parse
// with xmlbuilder2's own parser (no limits, entities of its own making): a second parser the safe
// one in ./parse.ts would not govern. So writers never import xmlbuilder2 directly: they start a
// document here, where construction can only begin empty, and add nodes with the builder's methods.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

export type { XMLBuilder };

/** A new, empty document with the declaration `<?xml version="1.0" encoding="UTF-8"?>`. */
export function newXmlDocument(): XMLBuilder {
  return create({ version: '1.0', encoding: 'UTF-8' });
}
