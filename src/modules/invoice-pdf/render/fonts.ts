import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

/**
 * The fonts every PDF embeds: Noto Sans Regular and Bold, TrueType, from the npm package
 * @expo-google-fonts/noto-sans (the Google Fonts TTFs, SIL Open Font License 1.1: NotoSans-OFL.txt
 * beside this file). They cover Latin Extended-A (ľ ť ď ĺ ŕ ô ä), which the 14 standard PDF fonts
 * cannot draw. Parsed once per thread and shared by every document (parsing Noto's layout tables
 * for each one was most of a render); pdfkit embeds a subset of the glyphs a document uses.
 */
interface PdfFonts {
  regular: Font;
  bold: Font;
}

const PACKAGE = '@expo-google-fonts/noto-sans';

let loaded: PdfFonts | undefined;

function open(file: string): Font {
  const font = create(readFileSync(createRequire(import.meta.url).resolve(`${PACKAGE}/${file}`)));
  if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
  return font;
}

export function pdfFonts(): PdfFonts {
  loaded ??= { regular: open('400Regular/NotoSans_400Regular.ttf'), bold: open('700Bold/NotoSans_700Bold.ttf') };
  return loaded;
}
