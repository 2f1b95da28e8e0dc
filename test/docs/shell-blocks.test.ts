import { expect } from 'chai';
import { shellBlocks } from './shell-blocks.ts';

describe('the shell blocks of a Markdown file', () => {
  const markdown = [
    '# Title', '', '```sh', 'echo one', '```', '', '```json', '{"not":"shell"}', '```', '',
    '- a list', '', '  ```bash norun', '  npm ci', '  ```', '', '```console', '$ echo three', 'three', '```', '', '```shell', 'echo four', '```',
  ].join('\n');

  it('finds sh, bash and shell fences with their lines; JSON and console transcripts are not commands', () => {
    expect(shellBlocks(markdown)).to.deep.equal([
      { line: 3, text: 'echo one', norun: false },
      { line: 13, text: 'npm ci', norun: true },
      { line: 22, text: 'echo four', norun: false },
    ]);
  });
});
