// Runs a compiled rule set on one document and turns the engine's strings into findings.
import { FIELD_SEPARATOR, normalizeSpace } from './compile.ts';
import type { SchCheck } from './model.ts';
import { saxonJs, type SefNode } from './saxon.ts';
import type { Finding } from '../types.ts';

export function parseFindingLine<S extends string>(line: string, source: S, checks: SchCheck[] = []): Finding<S> {
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

/** Runs the rule set; an error that escapes the per-rule guards becomes one fatal finding. */
/** A document parsed once by SaxonJS, to share between the rule sets of one validation. */
export type PreparedSource = { readonly saxonDocument: unknown };

/** Parses for SaxonJS once; null if SaxonJS's parser refuses what libxml2 accepted (each run then reports it). */
export function prepareSource(xml: string): PreparedSource | null {
  try {
    return { saxonDocument: saxonJs().getPlatform().parseXmlFromString(xml) };
  } catch {
    return null;
  }
}

export function runSef<S extends string>(sef: SefNode, xml: string | PreparedSource, source: S, checks: SchCheck[] = []): Finding<S>[] {
  try {
    const input = typeof xml === 'string' ? { sourceText: xml } : { sourceNode: xml.saxonDocument };
    const { principalResult } = saxonJs().transform({ stylesheetInternal: sef, ...input, destination: 'raw' }, 'sync');
    const items = Array.isArray(principalResult) ? principalResult : principalResult == null ? [] : [principalResult];
    return items.map((item) => parseFindingLine(String(item), source, checks));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [{ rule: `${source.toUpperCase()}-ENGINE-ERROR`, flag: 'fatal', location: '/', message: `Rule set could not run: ${message}`, source }];
  }
}
