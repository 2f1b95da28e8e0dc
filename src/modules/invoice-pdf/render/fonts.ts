import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font, type Glyph, type GlyphRun } from 'fontkit';

/**
 * The fonts a PDF may embed, in the order a character looks for its glyph: Noto Sans (Latin with
 * Latin Extended-A for ľ ť ď ĺ ŕ ô ä, Greek, Cyrillic, Devanagari, and the U+FFFD drawn for a
 * character no font has), IBM Plex Sans Arabic, Noto Sans Hebrew, Noto Sans Thai, Noto Sans SC
 * (Chinese, Japanese kana). Each comes from its npm package (Google Fonts TTFs under the SIL Open
 * Font License 1.1: NotoSans-OFL.txt beside this file, and each package carries its own), so
 * `npm ci` brings them and nothing is read from the system.
 *
 * Arabic is IBM Plex, not Noto: Noto Sans Arabic draws a letter as a dotless base shared by several
 * letters plus separate dots, so a PDF's glyph-to-text map (one text per glyph) cannot give the
 * letters back; Plex has a glyph per letter form.
 *
 * Parsed once per thread and shared by every document; a font is read only when a document first
 * needs it (the SC font is 10 MB: a thread that never meets a character Noto Sans, Arabic, Hebrew
 * and Thai lack never loads it). pdfkit embeds a subset of the glyphs a document uses, and only the
 * fonts it draws with.
 */
export type FontStyle = 'regular' | 'bold';

interface Family {
  key: string;
  pkg: string;
  files: Record<FontStyle, string>;
  /** OpenType features every layout of this font gets (a new object each time: fontkit writes into it) */
  features?: () => Record<string, boolean>;
}

const FAMILIES: Family[] = [
  { key: 'latin', pkg: '@expo-google-fonts/noto-sans', files: { regular: '400Regular/NotoSans_400Regular.ttf', bold: '700Bold/NotoSans_700Bold.ttf' } },
  { key: 'arabic', pkg: '@expo-google-fonts/ibm-plex-sans-arabic', files: { regular: '400Regular/IBMPlexSansArabic_400Regular.ttf', bold: '700Bold/IBMPlexSansArabic_700Bold.ttf' } },
  { key: 'hebrew', pkg: '@expo-google-fonts/noto-sans-hebrew', files: { regular: '400Regular/NotoSansHebrew_400Regular.ttf', bold: '700Bold/NotoSansHebrew_700Bold.ttf' } },
  {
    key: 'thai', pkg: '@expo-google-fonts/noto-sans-thai', files: { regular: '400Regular/NotoSansThai_400Regular.ttf', bold: '700Bold/NotoSansThai_700Bold.ttf' },
    // ccmp splits SARA AM (ำ) into NIKHAHIT and a SARA AA glyph that stands for nothing, which a reader then gets wrong; its own glyph reads back
    features: () => ({ ccmp: false }),
  },
  { key: 'cjk', pkg: '@expo-google-fonts/noto-sans-sc', files: { regular: '400Regular/NotoSansSC_400Regular.ttf', bold: '700Bold/NotoSansSC_700Bold.ttf' } },
];

/** One font of the fallback order: the name pdfkit knows it by and the font, read on first use. */
export interface PdfFace {
  /** 'regular' and 'bold' for Noto Sans (the layout's own names), 'regular-arabic' … for the others */
  readonly name: string;
  /** the parsed font as pdfkit is given it and as text is measured with (see `forPdf`) */
  font(): Font;
  /** whether the font draws the code point (it has a glyph for it in its cmap) */
  has(codePoint: number): boolean;
}

const resolve = createRequire(import.meta.url).resolve;

function open(family: Family, style: FontStyle): Font {
  const file = `${family.pkg}/${family.files[style]}`;
  const font = create(readFileSync(resolve(file)));
  if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
  return forPdf(font, family.features);
}

/** A glyph that stands for other text than fontkit's shared glyph object says. */
const standingFor = (glyph: Glyph, codePoints: number[]): Glyph => Object.create(glyph, { codePoints: { value: codePoints } }) as Glyph;

/**
 * The font with two changes to its layout, as pdfkit and the measuring both use it: the family's
 * features, and a ligature laid out right to left (lam-alef) standing for its letters in reverse.
 * A PDF holds right-to-left text in visual order and readers reverse what they extract, so the
 * ligature's letters must be stored reversed to come back in order.
 */
function forPdf(font: Font, features: Family['features']): Font {
  const layout = (text: string, requested?: string[] | Record<string, boolean>): GlyphRun => {
    const run = font.layout(text, requested === undefined || (Array.isArray(requested) && requested.length === 0) ? features?.() ?? requested : requested);
    if (run.direction === 'rtl') run.glyphs = run.glyphs.map((g) => (g.codePoints.length > 1 ? standingFor(g, [...g.codePoints].reverse()) : g));
    return run;
  };
  // the font itself underneath, only its layout replaced (a Proxy's trap on every property read cost more than the rest)
  return Object.create(font, { layout: { value: layout } }) as Font;
}

function face(family: Family, style: FontStyle): PdfFace {
  let font: Font | undefined;
  const load = () => (font ??= open(family, style));
  return {
    name: family.key === 'latin' ? style : `${style}-${family.key}`,
    font: load,
    has: (codePoint) => load().hasGlyphForCodePoint(codePoint),
  };
}

export type PdfFonts = Record<FontStyle, readonly PdfFace[]>;

let faces: PdfFonts | undefined;

/** Every style's fonts in fallback order; the first of each is the text font, read at once. */
export function pdfFonts(): PdfFonts {
  if (!faces) {
    faces = { regular: FAMILIES.map((f) => face(f, 'regular')), bold: FAMILIES.map((f) => face(f, 'bold')) };
    faces.regular[0]!.font();
    faces.bold[0]!.font();
  }
  return faces;
}
