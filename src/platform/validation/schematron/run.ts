// Runs a compiled rule set on one document and turns the engine's strings into findings.
import { FIELD_SEPARATOR, normalizeSpace } from './compile.ts';
import type { SchCheck } from './model.ts';
import { saxonJs, type SefNode } from './saxon.ts';
import type { Finding } from '../types.ts';
import { parseXml, type XDocument } from '../compiled/tree.ts';

function parseFindingLine<S extends string>(line: string, source: S, checks: SchCheck[] = []): Finding<S> {
  if (line.startsWith('f') || line.startsWith('e')) {
    // Compact form: kind, index of the check, location[, dynamic message | error text].
    const [kind, index = '', location = '', ...rest] = line.split(FIELD_SEPARATOR);
    const check = checks[Number(index)];
    if (!check) return { rule: `${source.toUpperCase()}-ENGINE-ERROR`, flag: 'fatal', location, message: `Unknown check #${index}`, source };
    const extra = rest.join(FIELD_SEPARATOR);
    if (kind === 'e') {
      return { rule: check.id, flag: 'fatal', location, message: `Rule ${check.id} could not be evaluated: ${extra}`, source };
    }
    const message = rest.length > 0 ? extra : normalizeSpace(check.message.map((p) => ('text' in p ? p.text : '')).join(''));
    return { rule: check.id, flag: check.flag, location, message, source };
  }
  const [kind = 'F', rule = '', flag = 'fatal', location = '', ...rest] = line.split(FIELD_SEPARATOR);
  const message = rest.join(FIELD_SEPARATOR);
  // A rule that raised a dynamic error is reported as fatal: we cannot claim it passed.
  return { rule, flag: kind === 'E' || flag !== 'warning' ? 'fatal' : 'warning', location, message, source };
}

/**
 * A document parsed once, to share between the rule sets of one validation: lazily for SaxonJS (a
 * compiled rule set only needs it to fall back) and for the compiled engine (its own tree).
 */
export class PreparedSource {
  private saxon: unknown;
  private saxonParsed = false;
  private compiledTree: XDocument | Error | undefined;
  constructor(readonly text: string) {}

  /** SaxonJS's tree; null if SaxonJS's parser refuses what libxml2 accepted (each run then reports it). */
  get saxonDocument(): unknown {
    if (!this.saxonParsed) {
      this.saxonParsed = true;
      try {
        this.saxon = saxonJs().getPlatform().parseXmlFromString(this.text);
      } catch {
        this.saxon = null;
      }
    }
    return this.saxon;
  }

  /** The compiled engine's tree; throws when the document is not one its parser takes. */
  tree(): XDocument {
    if (this.compiledTree === undefined) {
      try {
        this.compiledTree = parseXml(this.text);
      } catch (err) {
        this.compiledTree = err instanceof Error ? err : new Error(String(err));
      }
    }
    if (this.compiledTree instanceof Error) throw this.compiledTree;
    return this.compiledTree;
  }
}

/** Prepares a document for the rule sets of one validation (parsing happens on first use). */
export function prepareSource(xml: string): PreparedSource | null {
  return new PreparedSource(xml);
}

/** One finding with the index of its check in allChecks() (-1 for engine errors). */
export interface IndexedFinding<S extends string> {
  finding: Finding<S>;
  index: number;
}

/** Runs the rule set; an error that escapes the per-rule guards becomes one fatal finding. */
export function runSefIndexed<S extends string>(sef: SefNode, xml: string | PreparedSource, source: S, checks: SchCheck[] = []): IndexedFinding<S>[] {
  try {
    const doc = typeof xml === 'string' ? null : xml.saxonDocument;
    const input = doc !== null ? { sourceNode: doc } : { sourceText: typeof xml === 'string' ? xml : xml.text };
    const { principalResult } = saxonJs().transform({ stylesheetInternal: sef, ...input, destination: 'raw' }, 'sync');
    const items = Array.isArray(principalResult) ? principalResult : principalResult == null ? [] : [principalResult];
    return items.map((item) => {
      const line = String(item);
      const index = line.startsWith('f') || line.startsWith('e') ? Number(line.split(FIELD_SEPARATOR)[1]) : -1;
      return { finding: parseFindingLine(line, source, checks), index };
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [{ finding: { rule: `${source.toUpperCase()}-ENGINE-ERROR`, flag: 'fatal', location: '/', message: `Rule set could not run: ${message}`, source }, index: -1 }];
  }
}

export function runSef<S extends string>(sef: SefNode, xml: string | PreparedSource, source: S, checks: SchCheck[] = []): Finding<S>[] {
  return runSefIndexed(sef, xml, source, checks).map((f) => f.finding);
}
