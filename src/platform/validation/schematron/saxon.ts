// Typed view of the parts of SaxonJS 2 the engine uses. saxon-js ships no type declarations.
import { createRequire } from 'node:module';

/** A node of a SEF tree (the compiled stylesheet, JSON). */
export interface SefNode {
  N: string;
  C?: SefNode[];
  parentNode?: SefNode;
  [key: string]: unknown;
}

export interface TransformOptions {
  stylesheetInternal?: SefNode;
  sourceText?: string;
  sourceNode?: unknown;
  destination?: 'raw' | 'serialized' | 'application';
  initialMode?: string;
  templateParams?: Record<string, unknown>;
  stylesheetParams?: unknown;
  async?: boolean;
  [key: string]: unknown;
}

interface TransformResult {
  principalResult: unknown;
}

interface CheckedOptions {
  resultPromise: Promise<TransformResult>;
}

interface XdmMapLike {
  inSituPut(key: unknown, value: unknown[]): void;
}

interface SaxonJsApi {
  transform(options: TransformOptions, mode?: 'sync'): TransformResult;
  getResource(options: { text: string; type: 'xml' }): Promise<unknown>;
  checkOptions(options: TransformOptions): CheckedOptions;
  internalTransform(stylesheet: SefNode, source: unknown, options: CheckedOptions): void;
  getPlatform(): { resource(name: 'compiler'): SefNode; parseXmlFromString(text: string): DomDocumentLike };
  XdmMap: new () => XdmMapLike;
  XS: { QName: { fromParts(prefix: string, uri: string, local: string): unknown } };
  XPath: { sefToJSON(node: unknown, flag: boolean): SefNode };
  getProcessorInfo(): { productVersion: string };
}

interface DomDocumentLike {
  _saxonBaseUri?: string;
  firstChild: unknown;
}

const require = createRequire(import.meta.url);
let loaded: SaxonJsApi | undefined;
/** SaxonJS, loaded on first use: it costs ~0.6 s of CPU to load, and a service start needs it only at the first validation. */
export function saxonJs(): SaxonJsApi {
  return (loaded ??= require('saxon-js') as SaxonJsApi);
}
