import { createRequire } from 'node:module';
import type { Bidi } from 'bidi-js';
import type { PdfFace } from './fonts.ts';

/**
 * A paragraph of text cut into what the typesetter places: grapheme clusters (a letter with its
 * marks, an emoji sequence), each with the font it is drawn in, its bidi level and whether a line
 * may start at it.
 *
 * - Font: the first of the fallback order that has every glyph of the cluster; spaces, digits and
 *   punctuation stay in the font of the cluster before them when it has them, so an Arabic phrase
 *   with its spaces and numbers is one font's run. A cluster no font has is drawn as REPLACEMENT
 *   and its code points are kept as `missing`; a letter whose mark no font has keeps the letter.
 *   Invisible characters (joiners, variation selectors, direction marks, controls) are never
 *   missing: drawn when the font has them, left out when not.
 * - Level: the Unicode bidirectional algorithm (bidi-js), the paragraph's direction from its first
 *   strong letter; a paragraph without right-to-left letters is all level 0 without it.
 * - Line breaks: after spaces, and between words of scripts written without spaces (Chinese,
 *   Japanese, Thai: Intl.Segmenter's word boundaries), never before punctuation there.
 */
export interface Cluster {
  /** what is drawn: the characters the font has, or REPLACEMENT */
  readonly text: string;
  /** index in the style's fallback order */
  readonly face: number;
  /** bidi embedding level: odd is right to left */
  readonly level: number;
  readonly space: boolean;
  /** a line may start here */
  readonly breakBefore: boolean;
  /** code points no font draws */
  readonly missing: readonly number[];
}

/** How a cluster is drawn, wherever it stands; with the two clusters it makes at level 0, made once. */
interface Drawn extends Pick<Cluster, 'text' | 'face' | 'missing' | 'space'> {
  plain?: readonly [Cluster, Cluster];
}

/** what a character no font draws is drawn as */
export const REPLACEMENT = '\uFFFD';

// CommonJS whose module.exports is the factory; its typings say `export default`, which NodeNext reads as a property
export const bidi = (createRequire(import.meta.url)('bidi-js') as () => Bidi)();
const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });

export const PARAGRAPH_BREAK = /\r\n|[\n\r\u2028\u2029]/;
const SPACE = /^\s+$/u;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WITHOUT_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** a paragraph without any of these is left to right throughout: no bidi pass */
const MAYBE_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u202B\u202E\u2067]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
/** one UTF-16 unit per character, no marks, nothing invisible, left to right: each unit is a cluster */
const SIMPLE = /^[\x20-\x7E\u00A0-\u00AC\u00AE-\u024F\u2010-\u2027\u2030-\u205E\u20A0-\u20C0]*$/;

const NO_CODE_POINTS: readonly number[] = [];

/** Where each grapheme cluster of `text` ends (UTF-16 index): the places it may be cut without breaking a character. */
export const graphemeEnds = (text: string): number[] => Array.from(graphemes.segment(text), (g) => g.index + g.segment.length);

const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);

/** Cuts paragraphs into clusters for one style's fallback fonts, remembering how each cluster is drawn. */
export class ClusterCutter {
  /** letters (and marks) by cluster: their font does not depend on what stands before them */
  private readonly letters = new Map<string, Drawn>();
  /** spaces, digits and punctuation by the font before them (-1: none), then by cluster */
  private readonly neutrals = new Map<number, Map<string, Drawn>>();

  constructor(private readonly faces: readonly PdfFace[]) {}

  paragraph(text: string): Cluster[] {
    const levels = MAYBE_RTL.test(text) ? bidi.getEmbeddingLevels(text, 'auto').levels : undefined;
    const wordStarts = WITHOUT_SPACES.test(text) ? new Set(Array.from(wordSegmenter.segment(text), (s) => s.index)) : undefined;
    const clusters: Cluster[] = [];
    let previous: Cluster | undefined;
    const add = (segment: string, index: number) => {
      const drawn = this.draw(segment, previous?.face);
      if (drawn.text === '') return;
      const breakBefore =
        previous !== undefined &&
        ((previous.space && !drawn.space) ||
          (wordStarts !== undefined && wordStarts.has(index) && LETTER_OR_DIGIT.test(segment) && (WITHOUT_SPACES.test(segment) || WITHOUT_SPACES.test(previous.text))));
      const level = levels?.[index] ?? 0;
      previous = level === 0 ? plain(drawn)[breakBefore ? 1 : 0] : { ...cluster(drawn), level, breakBefore };
      clusters.push(previous);
    };
    if (SIMPLE.test(text)) for (let i = 0; i < text.length; i++) add(text[i]!, i);
    else for (const { segment, index } of graphemes.segment(text)) add(segment, index);
    return clusters;
  }

  /** How a cluster is drawn; `after`: the font of the cluster before it. */
  private draw(segment: string, after: number | undefined): Drawn {
    const letter = this.letters.get(segment);
    if (letter) return letter;
    let neutrals = this.neutrals.get(after ?? -1);
    if (!neutrals) this.neutrals.set(after ?? -1, (neutrals = new Map()));
    let drawn = neutrals.get(segment);
    if (drawn) return drawn;
    if (LETTER_OR_MARK.test(segment)) this.letters.set(segment, (drawn = this.choose(segment, undefined)));
    else neutrals.set(segment, (drawn = this.choose(segment, after)));
    return drawn;
  }

  private choose(segment: string, after: number | undefined): Drawn {
    const all = codePoints(segment);
    const visible = all.filter((cp) => !INVISIBLE.test(String.fromCodePoint(cp)));
    const has = (face: number) => (cp: number) => this.faces[face]!.has(cp);
    const drawnBy = (face: number): Drawn => ({ face, text: String.fromCodePoint(...all.filter(has(face))), missing: visible.filter((cp) => !has(face)(cp)), space: false });
    if (visible.length === 0) return { face: after ?? 0, text: '', missing: NO_CODE_POINTS, space: false };
    // a space any font lacks (a tab, an ideographic space) is drawn as a plain one
    if (SPACE.test(segment)) return { face: after ?? 0, text: all.every(has(after ?? 0)) ? segment : ' ', missing: NO_CODE_POINTS, space: true };
    const drawsAll = (face: number) => visible.every(has(face));
    const face = after !== undefined && drawsAll(after) ? after : this.faces.findIndex((_, i) => drawsAll(i));
    if (face >= 0) return drawnBy(face);
    const base = this.faces.findIndex((_, i) => has(i)(visible[0]!));
    return base >= 0 ? drawnBy(base) : { face: 0, text: REPLACEMENT, missing: visible, space: false };
  }
}

const cluster = ({ text, face, missing, space }: Drawn): Cluster => ({ text, face, missing, space, level: 0, breakBefore: false });

/** The level-0 clusters of `drawn` (a line may not start there, may start there), shared: most text is level 0. */
const plain = (drawn: Drawn): readonly [Cluster, Cluster] => (drawn.plain ??= [cluster(drawn), { ...cluster(drawn), breakBefore: true }]);
