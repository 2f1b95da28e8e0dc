// The shell blocks of a Markdown file, as a reader would paste them: fenced code whose info
// string starts with sh, bash or shell. marked finds them (no fence parsing of our own).
import { marked, type Token, type Tokens } from 'marked';

export interface ShellBlock {
  /** 1-based line of the opening fence */
  line: number;
  /** the commands, without the fences */
  text: string;
  /** ```sh norun: shown to the reader, never run by the README runner */
  norun: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);

export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let cursor = 0;
  const lineAt = (index: number) => markdown.slice(0, index).split('\n').length;
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type !== 'code') return;
    const code = token as Tokens.Code;
    const words = (code.lang ?? '').trim().split(/\s+/);
    // where it is: its raw text (top level), else its opening fence (inside a list, re-indented)
    let at = markdown.indexOf(code.raw, cursor);
    if (at < 0) at = markdown.indexOf(code.raw.split('\n')[0] ?? '', cursor);
    if (at >= 0) cursor = at + 1;
    if (!SHELLS.has(words[0] ?? '') || code.codeBlockStyle === 'indented') return;
    blocks.push({ line: at >= 0 ? lineAt(at) : 0, text: code.text, norun: words.includes('norun') });
  });
  return blocks;
}
