import { bidi, type Cluster } from './clusters.ts';

/** Text of one font drawn in one go. */
export interface Run {
  face: number;
  text: string;
  /** laid out as a whole, right to left (fontkit does that for an Arabic or Hebrew run), not word by word */
  whole: boolean;
}

/** scripts fontkit lays out right to left by itself */
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/** A line's clusters (logical order) as runs in the order they are drawn, left to right. */
export function visualRuns(clusters: readonly Cluster[]): Run[] {
  if (clusters.every((c) => c.level === 0)) return leftToRight(clusters);
  const runs: { face: number; level: number; clusters: Cluster[] }[] = [];
  for (const c of clusters) {
    const last = runs.at(-1);
    if (last && last.face === c.face && last.level === c.level) last.clusters.push(c);
    else runs.push({ face: c.face, level: c.level, clusters: [c] });
  }
  reorder(runs);
  return runs.map(({ face, level, clusters: cs }) => {
    if (level % 2 === 0) return { face, text: cs.map((c) => c.text).join(''), whole: false };
    // right to left: brackets mirrored (rule L4); fontkit reverses an Arabic or Hebrew run itself, the rest (neutrals alone) is reversed here
    const mirrored = cs.map((c) => c.text.replace(/./gsu, (ch) => bidi.getMirroredCharacter(ch) ?? ch));
    const text = mirrored.join('');
    return RTL_SCRIPT.test(text) ? { face, text, whole: true } : { face, text: mirrored.reverse().join(''), whole: false };
  });
}

/** Rule L2 of the bidi algorithm on whole runs: from the highest level down to the lowest odd one, every stretch at that level or above reversed. */
function reorder<T extends { level: number }>(runs: T[]): void {
  const levels = runs.map((r) => r.level);
  const highest = Math.max(...levels);
  const lowestOdd = Math.min(...levels.map((l) => (l % 2 === 1 ? l : l + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]!.level < level) continue;
      let end = i;
      while (end + 1 < runs.length && runs[end + 1]!.level >= level) end++;
      runs.splice(i, end - i + 1, ...runs.slice(i, end + 1).reverse());
      i = end;
    }
  }
}

/** The common case, every cluster left to right: runs of one font in logical order. */
function leftToRight(clusters: readonly Cluster[]): Run[] {
  const runs: Run[] = [];
  let face = -1;
  let text = '';
  for (const c of clusters) {
    if (c.face === face) text += c.text;
    else {
      if (text !== '') runs.push({ face, text, whole: false });
      face = c.face;
      text = c.text;
    }
  }
  if (text !== '') runs.push({ face, text, whole: false });
  return runs;
}
